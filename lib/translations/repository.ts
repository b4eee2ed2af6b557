import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchDelete } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { recordOf } from '../store/index-item.ts';
import { INDEXES, keys, type Key } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import { deleteExisting } from '../store/update-existing.ts';
import type { ResourceType, Translation, TranslationContent } from './schemas.ts';

const GROUPS = INDEXES.translationGroup.list;
const LOCALES = INDEXES.translation.ofLocale;

// Storage of translations. A resource's group item (its identifier and name as last written) and
// one item per locale share the resource's partition, keyed by its database id; a locale's
// content is kept as the JSON text it was sent as (any keys, dots included, any nesting). No
// write needs a transaction: the group is written before the locale, so a crash in between
// leaves at most a group without that locale, which the retried request completes.

/** A translatable resource as the translation routes name it (resources.ts finds it). */
export interface ResourceRef {
  resourceType: ResourceType;
  /** Database id: the partition, stable when the identifier changes. */
  dbId: string;
  /** What clients name it by (a workflow's workflowId). */
  resourceId: string;
  name: string;
}

/** The group item as stored, less its keys (recordOf): every attribute putTranslation sets on it. */
export interface StoredGroup {
  resourceType: ResourceType;
  resourceId: string;
  resourceName: string;
  dbId: string;
  createdAt: string;
  updatedAt: string;
}

export interface LocaleStamp {
  locale: string;
  updatedAt: string;
}

const groupKey = (scope: EnvScope, r: Pick<ResourceRef, 'resourceType' | 'dbId'>) => keys.translationGroup(scope, r.resourceType, r.dbId);

/** Replaces the content of one locale (creating the group when it is the first); the stored translation. */
export async function putTranslation(
  scope: EnvScope,
  resource: ResourceRef,
  locale: string,
  content: TranslationContent,
  now: string,
): Promise<Translation> {
  const [translation] = await putTranslations(scope, resource, [[locale, content]], now);
  return translation!;
}

/**
 * Replaces the content of each locale given, the group written once before them (an upload of
 * many files, a copy of many locales); nothing is written when none is given.
 */
export async function putTranslations(
  scope: EnvScope,
  resource: ResourceRef,
  contents: [locale: string, content: TranslationContent][],
  now: string,
): Promise<Translation[]> {
  if (contents.length === 0) return [];
  await putGroup(scope, resource, now);
  const written: Translation[] = [];
  for (const [locale, content] of contents) written.push(await putLocale(scope, resource, locale, content, now));
  return written;
}

async function putGroup(scope: EnvScope, resource: ResourceRef, now: string): Promise<void> {
  const list = keys.translationGroupListIndex(scope, now, resource.resourceType, resource.dbId);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: groupKey(scope, resource),
      UpdateExpression:
        'SET #type = :type, resourceType = :rt, resourceId = :rid, resourceName = :name, dbId = :db, updatedAt = :now, ' +
        `createdAt = if_not_exists(createdAt, :now), ${GROUPS.partitionKey} = :gpk, ` +
        `${GROUPS.sortKey} = if_not_exists(${GROUPS.sortKey}, :gsk)`,
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'TranslationGroup',
        ':rt': resource.resourceType,
        ':rid': resource.resourceId,
        ':name': resource.name,
        ':db': resource.dbId,
        ':now': now,
        ':gpk': list.gsi1pk,
        ':gsk': list.gsi1sk,
      },
    }),
  );
}

async function putLocale(
  scope: EnvScope,
  resource: ResourceRef,
  locale: string,
  content: TranslationContent,
  now: string,
): Promise<Translation> {
  const index = keys.translationLocaleIndex(scope, locale, resource.resourceType, resource.dbId);
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.translation(scope, resource.resourceType, resource.dbId, locale),
      UpdateExpression:
        'SET #type = :type, resourceType = :rt, resourceId = :rid, dbId = :db, locale = :locale, content = :content, ' +
        `updatedAt = :now, createdAt = if_not_exists(createdAt, :now), ${LOCALES.partitionKey} = :ipk, ${LOCALES.sortKey} = :isk`,
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'Translation',
        ':rt': resource.resourceType,
        ':rid': resource.resourceId,
        ':db': resource.dbId,
        ':locale': locale,
        ':content': JSON.stringify(content),
        ':now': now,
        ':ipk': index.gsi1pk,
        ':isk': index.gsi1sk,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toTranslation(Attributes!);
}

export async function getTranslation(scope: EnvScope, resource: ResourceRef, locale: string): Promise<Translation | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.translation(scope, resource.resourceType, resource.dbId, locale),
      ConsistentRead: true,
    }),
  );
  return Item && toTranslation({ ...Item, resourceId: resource.resourceId });
}

export async function getGroup(scope: EnvScope, resource: Pick<ResourceRef, 'resourceType' | 'dbId'>): Promise<StoredGroup | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: groupKey(scope, resource), ConsistentRead: true }));
  return Item && recordOf<StoredGroup>(Item);
}

/** The resource's locale items (consistent: a write just answered is seen), with only `attributes`. */
async function localeItems(
  scope: EnvScope,
  resource: Pick<ResourceRef, 'resourceType' | 'dbId'>,
  attributes: string,
): Promise<Record<string, unknown>[]> {
  const { pk, skPrefix } = keys.translationsOfResource(scope, resource.resourceType, resource.dbId);
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    ProjectionExpression: attributes,
    ConsistentRead: true,
  });
}

/** The resource's locales with when each last changed, without their contents. */
export async function localesOf(scope: EnvScope, resource: Pick<ResourceRef, 'resourceType' | 'dbId'>): Promise<LocaleStamp[]> {
  const items = await localeItems(scope, resource, 'locale, updatedAt');
  return items.map((item) => ({ locale: item.locale as string, updatedAt: item.updatedAt as string }));
}

/** Every locale's content of the resource, in one Query (the renderer's read; sync's copy). */
export async function contentsOf(
  scope: EnvScope,
  resource: Pick<ResourceRef, 'resourceType' | 'dbId'>,
): Promise<Record<string, TranslationContent>> {
  const items = await localeItems(scope, resource, 'locale, content');
  return Object.fromEntries(items.map((item) => [item.locale as string, parseContent(item.content)]));
}

/** The keys of the resource's group and locale items (what deleting or renaming it walks). */
async function partitionKeys(scope: EnvScope, resource: Pick<ResourceRef, 'resourceType' | 'dbId'>): Promise<Key[]> {
  const { pk } = keys.translationsOfResource(scope, resource.resourceType, resource.dbId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  return items as unknown as Key[];
}

/** False when the locale had no content. */
export function deleteTranslation(scope: EnvScope, resource: ResourceRef, locale: string): Promise<boolean> {
  return deleteExisting(keys.translation(scope, resource.resourceType, resource.dbId, locale));
}

/** Deletes the group and every locale of the resource; false when there was nothing. */
export async function deleteTranslationsOf(scope: EnvScope, resource: Pick<ResourceRef, 'resourceType' | 'dbId'>): Promise<boolean> {
  const items = await partitionKeys(scope, resource);
  if (items.length === 0) return false;
  // The group last: a crash midway leaves a group whose deletion can be asked again.
  const group = groupKey(scope, resource);
  const locales = items.filter((item) => item.sk !== group.sk);
  await batchDelete(locales);
  await batchDelete([group]);
  return true;
}

/** Records a resource's new identifier on its group and locales (what the list and the export show). */
export async function renameResource(scope: EnvScope, resource: ResourceRef): Promise<void> {
  for (const key of await partitionKeys(scope, resource)) {
    // Not written when deleted meanwhile: nothing to rename.
    await writeIf(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET resourceId = :rid',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':rid': resource.resourceId },
        }),
      ),
    );
  }
}

/** Every resource with content in `locale` (gsi1): the master JSON export. */
export async function translationsOfLocale(
  scope: EnvScope,
  locale: string,
): Promise<{ resourceType: ResourceType; resourceId: string; content: TranslationContent }[]> {
  const items = await queryAll({
    IndexName: LOCALES.name,
    KeyConditionExpression: onIndex(LOCALES),
    ExpressionAttributeValues: { ':pk': keys.translationsOfLocale(scope, locale).gsi1pk },
  });
  return items.map((item) => ({
    resourceType: item.resourceType as ResourceType,
    resourceId: item.resourceId as string,
    content: parseContent(item.content),
  }));
}

/** The environment's groups, oldest first (gsi1). */
export async function groupsOfEnvironment(scope: EnvScope): Promise<StoredGroup[]> {
  const items = await queryAll({
    IndexName: GROUPS.name,
    KeyConditionExpression: onIndex(GROUPS),
    ExpressionAttributeValues: { ':pk': keys.translationGroupsOfEnvironment(scope).gsi1pk },
  });
  return items.map((item) => recordOf<StoredGroup>(item));
}

const parseContent = (value: unknown): TranslationContent => (typeof value === 'string' ? (JSON.parse(value) as TranslationContent) : {});

/** Field by field, not recordOf: the API answers it as it is, and the item also holds dbId. */
function toTranslation(item: Record<string, unknown>): Translation {
  return {
    resourceId: item.resourceId as string,
    resourceType: item.resourceType as ResourceType,
    locale: item.locale as string,
    content: parseContent(item.content),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
