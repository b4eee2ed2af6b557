import { tableName } from '../config.ts';
import { getItem } from '../store/get-item.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { firstOfIndex, recordOf } from '../store/index-item.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { transact } from '../store/transact.ts';
import { setOnExisting } from '../store/update-existing.ts';
import type { UserRef } from '../workflows/model.ts';
import type { StoredLayout } from './model.ts';
import type { LayoutControlValues } from './schemas.ts';

// Storage of layouts: one item per layout, keyed by its identifier, found by database id through
// gsi1 and listed per environment through gsi2. The environment's default is named by a marker
// item, written once, in the same transaction as the first layout. Who uses a layout lives in its
// partition (uses.ts); a delete is a transaction conditioned on that count being zero.

const scopeOf = (layout: StoredLayout): EnvScope => ({ organizationId: layout._organizationId, environmentId: layout._environmentId });

function toItem(layout: StoredLayout) {
  const scope = scopeOf(layout);
  return {
    ...keys.layout(scope, layout.layoutId),
    ...keys.layoutDbIdIndex(scope, layout._id),
    ...keys.layoutListIndex(scope, layout.createdAt, layout._id),
    type: 'Layout',
    ...layout,
  };
}

const fromItem = (item: Record<string, unknown>) => recordOf<StoredLayout>(item);

/**
 * By identifier, read consistently (a client reads right after writing; a sync writes then reads). Batched
 * with other reads of the turn.
 */
export async function getLayout(scope: EnvScope, identifier: string): Promise<StoredLayout | undefined> {
  const item = await getItem(keys.layout(scope, identifier), { consistent: true });
  return item && fromItem(item);
}

export async function getLayoutByDbId(scope: EnvScope, layoutDbId: string): Promise<StoredLayout | undefined> {
  const item = await firstOfIndex(INDEXES.layout.byDbId, keys.layoutByDbId(scope, layoutDbId).gsi1pk);
  return item && fromItem(item);
}

/** Every layout of the environment, oldest first (at most MAX_LAYOUTS). */
export async function listLayouts(scope: EnvScope): Promise<StoredLayout[]> {
  const items = await queryAll({
    IndexName: INDEXES.layout.list.name,
    KeyConditionExpression: onIndex(INDEXES.layout.list),
    ExpressionAttributeValues: { ':pk': keys.layoutsOfEnvironment(scope).gsi2pk },
  });
  return items.map(fromItem);
}

/**
 * The identifier of the environment's default layout; undefined while it has none. Read through
 * getItem, so the email sends of a batch's records, which each read it, share one request.
 */
export async function getDefaultLayoutId(scope: EnvScope): Promise<string | undefined> {
  const item = await getItem(keys.defaultLayout(scope), { consistent: true });
  return item?.layoutId as string | undefined;
}

export type InsertOutcome = 'created' | 'identifier-taken' | 'default-taken';

/**
 * Stores a new layout if its identifier is free in the environment. A layout marked default is
 * stored with the environment's default marker, which must not exist yet: of two first layouts
 * written at once, one is the default and the other is told `default-taken` (and is written again
 * as not default).
 */
export async function insertLayout(layout: StoredLayout): Promise<InsertOutcome> {
  const scope = scopeOf(layout);
  const refused = await transact([
    { Put: { TableName: tableName(), Item: toItem(layout), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(layout.isDefault
      ? [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.defaultLayout(scope), layoutId: layout.layoutId },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]
      : []),
  ]);
  if (!refused) return 'created';
  const [put, marker] = refused;
  if (put === 'ConditionalCheckFailed') return 'identifier-taken';
  if (marker === 'ConditionalCheckFailed') return 'default-taken';
  // A conflict with a concurrent write of the same items: the caller's request is retried by the client.
  throw new StaleWriteError('Layout written concurrently');
}

export interface LayoutChanges {
  name: string;
  isTranslationEnabled?: boolean;
  /** undefined: unchanged; null: removed; values: replace the stored ones. */
  controlValues?: LayoutControlValues | null;
  updatedAt: string;
  updatedBy: UserRef;
}

/** Sets the changed fields; undefined when the layout does not exist. */
export async function updateLayout(scope: EnvScope, identifier: string, changes: LayoutChanges): Promise<StoredLayout | undefined> {
  const item = await setOnExisting(keys.layout(scope, identifier), { ...changes });
  return item && fromItem(item);
}

export type DeleteOutcome = 'deleted' | 'changed' | 'in-use';

/**
 * Deletes a layout that is not the default and that no workflow uses, in one transaction with a
 * check of its use count (uses.ts), so a workflow saved meanwhile cannot start using a deleted
 * layout unnoticed. `changed`: it is gone or became another layout meanwhile.
 */
export async function deleteLayout(layout: StoredLayout): Promise<DeleteOutcome> {
  const scope = scopeOf(layout);
  const refused = await transact([
    {
      Delete: {
        TableName: tableName(),
        Key: keys.layout(scope, layout.layoutId),
        ConditionExpression: '#id = :id AND isDefault = :false',
        ExpressionAttributeNames: { '#id': '_id' },
        ExpressionAttributeValues: { ':id': layout._id, ':false': false },
      },
    },
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.layoutUseCount(scope, layout.layoutId),
        ConditionExpression: 'attribute_not_exists(pk) OR uses <= :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      },
    },
  ]);
  if (!refused) return 'deleted';
  return refused[1] === 'ConditionalCheckFailed' ? 'in-use' : 'changed';
}
