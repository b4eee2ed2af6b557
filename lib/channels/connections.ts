import { contextKeyOf, contextKeysOf } from '../context-keys.ts';
import { NotFoundError } from '../errors.ts';
import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriberOrFail } from '../subscribers/get.ts';
import {
  claimResource,
  connectionsPage,
  deleteConnection,
  getConnection,
  insertConnection,
  replaceConnectionAuth,
  type StoredConnection,
} from './connection-repository.ts';
import { chatIntegrationOrFail } from './integration.ts';
import {
  CONNECTION_PROVIDERS,
  type ConnectionView,
  type CreateConnectionInput,
  type ListConnectionsQuery,
  type UpdateConnectionInput,
} from './schemas.ts';

// Channel connections (/v1/channel-connections): a workspace's token for a Slack integration,
// owned by a subscriber or shared by a context. The OAuth callback creates them too; the API
// lets a customer who ran the install flow themselves store the token.

const LIST_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f]{24}$/;

export async function createConnection(scope: EnvScope, input: CreateConnectionInput): Promise<ConnectionView> {
  const integration = await chatIntegrationOrFail(scope, input.integrationIdentifier, CONNECTION_PROVIDERS);
  const shared = input.connectionMode === 'shared';
  const subscriberId = shared ? null : input.subscriberId!;
  if (subscriberId !== null) await getSubscriberOrFail(scope, subscriberId);
  const contextKeys = contextKeysOf(input.context);
  const now = new Date().toISOString();
  const connection: StoredConnection = {
    _id: newId(),
    identifier: input.identifier ?? `conn-${newId()}`,
    providerId: integration.providerId,
    channel: 'chat',
    integrationIdentifier: integration.identifier,
    _integrationId: integration._id,
    connectionMode: input.connectionMode,
    subscriberId,
    contextKeys,
    resource: claimResource(subscriberId, contextKeyOf(contextKeys)),
    workspace: input.workspace,
    auth: input.auth,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  await insertConnection(scope, connection);
  return connectionView(connection);
}

export async function getConnectionOrFail(scope: EnvScope, identifier: string): Promise<StoredConnection> {
  const connection = await getConnection(scope, identifier);
  if (!connection) throw new NotFoundError(`Channel connection ${identifier} was not found`);
  return connection;
}

export const getConnectionView = async (scope: EnvScope, identifier: string) =>
  connectionView(await getConnectionOrFail(scope, identifier));

export async function updateConnection(scope: EnvScope, identifier: string, input: UpdateConnectionInput): Promise<ConnectionView> {
  const updated = await replaceConnectionAuth(scope, identifier, { ...input, updatedAt: new Date().toISOString() });
  if (!updated) throw new NotFoundError(`Channel connection ${identifier} was not found`);
  return connectionView(updated);
}

/** Its endpoints stay, and are skipped at delivery until a connection of that identifier exists again. */
export async function removeConnection(scope: EnvScope, identifier: string): Promise<void> {
  const connection = await getConnectionOrFail(scope, identifier);
  if (!(await deleteConnection(scope, connection))) throw new NotFoundError(`Channel connection ${identifier} was not found`);
}

export async function listConnections(scope: EnvScope, query: ListConnectionsQuery) {
  const { subscriberId, connectionMode, channel, providerId, integrationIdentifier, contextKeys } = query;
  const page = await connectionsPage(
    scope,
    { subscriberId, connectionMode, channel, providerId, integrationIdentifier, contextKeys },
    toPageRequest(query, cursorOfShape(LIST_KEY)),
  );
  return {
    ...cursorList(page, (items) => items.map(connectionView)),
    totalCount: page.totalCount,
    totalCountCapped: page.totalCountCapped,
  };
}

/** What clients see: the tokens masked to their last four characters. */
export function connectionView(c: StoredConnection): ConnectionView {
  const { accessToken, refreshToken, expiresAt, refreshTokenExpiresAt } = c.auth;
  return {
    identifier: c.identifier,
    channel: c.channel,
    providerId: c.providerId,
    integrationIdentifier: c.integrationIdentifier,
    subscriberId: c.subscriberId,
    contextKeys: c.contextKeys,
    workspace: c.workspace,
    auth: {
      accessToken: mask(accessToken),
      ...(refreshToken && { refreshToken: mask(refreshToken) }),
      ...(expiresAt && { expiresAt }),
      ...(refreshTokenExpiresAt && { refreshTokenExpiresAt }),
    },
    status: c.status,
    ...(c.revokedReason && { revokedReason: c.revokedReason }),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

const mask = (token: string) => `****${token.length > 12 ? token.slice(-4) : ''}`;
