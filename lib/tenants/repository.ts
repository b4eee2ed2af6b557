import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { paginate, queryReader, type Page, type PageRequest } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex, indexRange } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { numberedPage } from '../store/numbered-page.ts';
import { transact } from '../store/transact.ts';
import { deleteExisting, setOnExisting } from '../store/update-existing.ts';
import type { Tenant, TenantPatch } from './schemas.ts';

// Storage of tenants: one item per tenant, keyed by its identifier, listed in creation order on
// gsi1. Every write is one conditional write, so no read-then-write can race.

/** Read consistently: the trigger and clients read right after creating. */
export async function getTenant(scope: EnvScope, identifier: string): Promise<Tenant | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenant(scope, identifier), ConsistentRead: true }));
  return Item && fromItem(Item);
}

/** Stores a new tenant; 409 when the identifier is taken in the environment. */
export async function insertTenant(scope: EnvScope, tenant: Tenant): Promise<void> {
  if (
    !(await writeIf(() =>
      db().send(new PutCommand({ TableName: tableName(), Item: toItem(scope, tenant), ConditionExpression: 'attribute_not_exists(pk)' })),
    ))
  ) {
    throw new ConflictError(`Tenant with identifier ${tenant.identifier} already exists`);
  }
}

/** Sets the sent fields (data whole); undefined when the tenant does not exist. */
export async function updateTenant(scope: EnvScope, identifier: string, patch: TenantPatch, now: string): Promise<Tenant | undefined> {
  const item = await setOnExisting(keys.tenant(scope, identifier), { name: patch.name, data: patch.data, updatedAt: now });
  return item && fromItem(item);
}

export type MoveOutcome = 'moved' | 'identifier-taken' | 'changed-meanwhile';

/**
 * Stores `moved` (the tenant as read, with a new identifier and its other changes) under its new
 * identifier and deletes it under `from`, in one transaction: the new identifier must be free,
 * and the old item still as read (same `updatedAt`), else nothing is written. Its `_id` and
 * creation time, so its place in the list, stay.
 */
export async function moveTenant(scope: EnvScope, from: Tenant, moved: Tenant): Promise<MoveOutcome> {
  const refused = await transact(
    [
      { Put: { TableName: tableName(), Item: toItem(scope, moved), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Delete: {
          TableName: tableName(),
          Key: keys.tenant(scope, from.identifier),
          ConditionExpression: 'updatedAt = :read',
          ExpressionAttributeValues: { ':read': from.updatedAt },
        },
      },
    ],
    { answers: ['ConditionalCheckFailed', 'TransactionConflict'] },
  );
  if (!refused) return 'moved';
  return refused[0] === 'ConditionalCheckFailed' ? 'identifier-taken' : 'changed-meanwhile';
}

/** False when there was no such tenant. */
export const deleteTenant = (scope: EnvScope, identifier: string): Promise<boolean> => deleteExisting(keys.tenant(scope, identifier));

/** A page of the environment's tenants in creation order; cursors are gsi1 sort-key values. */
export async function tenantsPage(scope: EnvScope, request: PageRequest): Promise<Page<Tenant>> {
  const page = await paginate(
    queryReader(indexRange(INDEXES.tenant.list, keys.tenantsOfEnvironment(scope).gsi1pk)),
    (item) => item[INDEXES.tenant.list.sortKey] as string,
    request,
  );
  return { ...page, items: page.items.map(fromItem) };
}

/** Page `page` (from 0) of the environment's tenants, newest first. */
export async function tenantsByPage(scope: EnvScope, page: number, limit: number): Promise<{ tenants: Tenant[]; hasMore: boolean }> {
  const result = await numberedPage(
    {
      IndexName: INDEXES.tenant.list.name,
      KeyConditionExpression: onIndex(INDEXES.tenant.list),
      ExpressionAttributeValues: { ':pk': keys.tenantsOfEnvironment(scope).gsi1pk },
      ScanIndexForward: false,
    },
    page,
    limit,
  );
  return { tenants: result.items.map(fromItem), hasMore: result.hasMore };
}

function toItem(scope: EnvScope, tenant: Tenant): Record<string, unknown> {
  return {
    ...keys.tenant(scope, tenant.identifier),
    ...keys.tenantListIndex(scope, tenant.createdAt, tenant._id),
    type: 'Tenant',
    ...tenant,
  };
}

function fromItem(item: Record<string, unknown>): Tenant {
  return {
    _id: item._id as string,
    identifier: item.identifier as string,
    name: item.name as string,
    data: (item.data as Record<string, unknown> | undefined) ?? {},
    _environmentId: item._environmentId as string,
    _organizationId: item._organizationId as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
