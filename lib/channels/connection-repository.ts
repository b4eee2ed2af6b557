import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { decryptSecrets, encryptSecrets } from '../crypto/secret-fields.ts';
import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { indexRange } from '../store/index-keys.ts';
import { paginate, queryReader, type Page, type PageRequest } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { transact } from '../store/transact.ts';
import { totalCountOf } from '../http/total-count.ts';
import { listFilter } from './list-filter.ts';
import type { Auth, Workspace } from './schemas.ts';

// Storage of channel connections: one item per connection, keyed by its identifier, listed in
// creation order on gsi1, its tokens encrypted like an integration's credentials. Beside it, a
// claim item per (integration, resource) makes "one connection per resource and integration"
// hold under concurrent creates: both are written in one transaction.

export interface StoredConnection {
  _id: string;
  identifier: string;
  providerId: string;
  channel: 'chat';
  integrationIdentifier: string;
  _integrationId: string;
  connectionMode: 'subscriber' | 'shared';
  subscriberId: string | null;
  contextKeys: string[];
  /** The claim's resource (subscriber and/or context); see claimResource. */
  resource: string;
  workspace: Workspace;
  auth: Auth;
  status: 'active' | 'revoked';
  revokedReason?: string;
  createdAt: string;
  updatedAt: string;
}

const SECRET_AUTH_FIELDS = ['accessToken', 'refreshToken'];

export async function getConnection(scope: EnvScope, identifier: string): Promise<StoredConnection | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.channelConnection(scope, identifier), ConsistentRead: true }),
  );
  return Item && fromItem(Item);
}

/** 409 when the identifier is taken, or the integration already has a connection for the resource. */
export async function insertConnection(scope: EnvScope, connection: StoredConnection): Promise<void> {
  const refused = await transact(
    [
      { Put: { TableName: tableName(), Item: await toItem(scope, connection), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...claimKey(scope, connection), type: 'ChannelConnectionClaim', connectionIdentifier: connection.identifier },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    { answers: ['ConditionalCheckFailed'] },
  );
  if (refused?.[0] === 'ConditionalCheckFailed') throw new ConflictError(`Channel connection ${connection.identifier} already exists`);
  if (refused)
    throw new ConflictError(
      `Integration ${connection.integrationIdentifier} already has a channel connection for this ${resourceWord(connection)}`,
    );
}

/** Replaces the workspace and tokens (a reconnect makes the connection active again); undefined when there is none. */
export async function replaceConnectionAuth(
  scope: EnvScope,
  identifier: string,
  change: { workspace: Workspace; auth: Auth; updatedAt: string },
): Promise<StoredConnection | undefined> {
  const { groups, dataKey } = await encryptSecrets({ auth: change.auth }, { auth: SECRET_AUTH_FIELDS });
  let item: Record<string, unknown> | undefined;
  await writeIf(async () => {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.channelConnection(scope, identifier),
        // Every name aliased: some (`status`) are DynamoDB reserved words.
        UpdateExpression: 'SET #w = :w, #a = :a, #k = :k, #status = :active, #u = :u REMOVE #r',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: {
          '#w': 'workspace',
          '#a': 'auth',
          '#k': 'dataKey',
          '#status': 'status',
          '#u': 'updatedAt',
          '#r': 'revokedReason',
        },
        ExpressionAttributeValues: {
          ':w': change.workspace,
          ':a': groups.auth,
          ':k': dataKey,
          ':active': 'active',
          ':u': change.updatedAt,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    item = Attributes;
  });
  return item && fromItem(item);
}

/** Marks the connection's token refused by the provider (the console shows it); a missing connection is left alone. */
export async function markConnectionRevoked(scope: EnvScope, identifier: string, reason: string, now: string): Promise<void> {
  await writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.channelConnection(scope, identifier),
        UpdateExpression: 'SET #status = :revoked, #r = :reason, #u = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status', '#r': 'revokedReason', '#u': 'updatedAt' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':reason': reason, ':now': now },
      }),
    ),
  );
}

/** Deletes the connection and its claim; false when there was none. */
export async function deleteConnection(scope: EnvScope, connection: StoredConnection): Promise<boolean> {
  const refused = await transact(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.channelConnection(scope, connection.identifier),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Delete: { TableName: tableName(), Key: claimKey(scope, connection) } },
    ],
    { answers: ['ConditionalCheckFailed'] },
  );
  return !refused;
}

export interface ConnectionFilter {
  subscriberId?: string | undefined;
  connectionMode?: 'subscriber' | 'shared' | undefined;
  channel?: string | undefined;
  providerId?: string | undefined;
  integrationIdentifier?: string | undefined;
  contextKeys?: readonly string[] | undefined;
}

export async function connectionsPage(
  scope: EnvScope,
  filter: ConnectionFilter,
  request: PageRequest,
): Promise<Page<StoredConnection> & { totalCount: number; totalCountCapped: boolean }> {
  const { gsi1pk } = keys.channelConnectionsOfEnvironment(scope);
  const { contextKeys, ...equal } = filter;
  const range = indexRange(INDEXES.channelConnection.list, gsi1pk, listFilter(equal, contextKeys));
  const [page, total] = await Promise.all([
    paginate(queryReader(range), (item) => item[INDEXES.channelConnection.list.sortKey] as string, request),
    totalCountOf(range),
  ]);
  return { ...page, items: await Promise.all(page.items.map(fromItem)), ...total };
}

/** The connection that holds the claim of an integration for a resource, if any. */
export async function connectionIdentifierOfClaim(
  scope: EnvScope,
  integrationIdentifier: string,
  resource: string,
): Promise<string | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.channelConnectionClaim(scope, integrationIdentifier, resource),
      ConsistentRead: true,
    }),
  );
  return Item?.connectionIdentifier as string | undefined;
}

/** What the claim is unique over: the subscriber (subscriber mode) and the context. */
export function claimResource(subscriberId: string | null, contextKey: string): string {
  return `${subscriberId === null ? 'SHARED' : `SUB#${subscriberId}`}#CTX#${contextKey}`;
}

const claimKey = (scope: EnvScope, c: StoredConnection) => keys.channelConnectionClaim(scope, c.integrationIdentifier, c.resource);
const resourceWord = (c: StoredConnection) => (c.connectionMode === 'shared' ? 'context' : 'subscriber');

async function toItem(scope: EnvScope, connection: StoredConnection): Promise<Record<string, unknown>> {
  const { groups, dataKey } = await encryptSecrets({ auth: connection.auth }, { auth: SECRET_AUTH_FIELDS });
  return {
    ...keys.channelConnection(scope, connection.identifier),
    ...keys.channelConnectionListIndex(scope, connection.createdAt, connection._id),
    type: 'ChannelConnection',
    ...connection,
    contextKey: connection.contextKeys.join(','),
    auth: groups.auth,
    dataKey,
  };
}

async function fromItem(item: Record<string, unknown>): Promise<StoredConnection> {
  const { auth } = await decryptSecrets({ auth: item.auth as Record<string, unknown> }, item.dataKey as string | undefined);
  return {
    _id: item._id as string,
    identifier: item.identifier as string,
    providerId: item.providerId as string,
    channel: 'chat',
    integrationIdentifier: item.integrationIdentifier as string,
    _integrationId: item._integrationId as string,
    connectionMode: item.connectionMode as StoredConnection['connectionMode'],
    subscriberId: (item.subscriberId as string | null | undefined) ?? null,
    contextKeys: (item.contextKeys as string[] | undefined) ?? [],
    resource: item.resource as string,
    workspace: item.workspace as Workspace,
    auth: auth as Auth,
    status: (item.status as StoredConnection['status'] | undefined) ?? 'active',
    ...(typeof item.revokedReason === 'string' && { revokedReason: item.revokedReason }),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
