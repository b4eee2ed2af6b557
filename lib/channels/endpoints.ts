import { contextKeyOf, contextKeysOf } from '../context-keys.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriberOrFail } from '../subscribers/get.ts';
import { upsertProfile } from '../subscribers/upsert.ts';
import { claimResource, connectionIdentifierOfClaim, getConnection } from './connection-repository.ts';
import type { StoredIntegration } from '../integrations/repository.ts';
import {
  deleteEndpoint,
  endpointsOfSubscriber,
  endpointsPage,
  getEndpoint,
  insertEndpoint,
  updateEndpointData,
  type StoredEndpoint,
} from './endpoint-repository.ts';
import { chatIntegrationOrFail } from './integration.ts';
import {
  endpointDataSchemas,
  type CreateEndpointInput,
  type EndpointView,
  type ListEndpointsQuery,
  type UpdateEndpointInput,
} from './schemas.ts';

// Channel endpoints (/v1/channel-endpoints): where a chat step to the subscriber posts. A Slack
// or Teams channel or user is reached through a connection (the one named, or the subscriber's
// own connection of the integration for the endpoint's context, else the context's shared one):
// Slack's with its workspace token, Teams' with the bot's token in the connection's tenant. A
// webhook endpoint needs no connection. A user sign-in (lib/channels/oauth.ts) links one too.

const LIST_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f]{24}$/;

/** Which providers each endpoint type can be delivered through. */
const TYPE_PROVIDERS: Record<StoredEndpoint['type'], readonly string[] | undefined> = {
  slack_channel: ['slack'],
  slack_user: ['slack'],
  ms_teams_channel: ['msteams'],
  ms_teams_user: ['msteams'],
  webhook: undefined,
};

export async function createEndpoint(scope: EnvScope, input: CreateEndpointInput): Promise<EndpointView> {
  const integration = await chatIntegrationOrFail(scope, input.integrationIdentifier);
  const allowed = TYPE_PROVIDERS[input.type];
  if (allowed && !allowed.includes(integration.providerId)) {
    throw ValidationError.forField('type', `A ${input.type} endpoint needs a ${allowed.join(' or ')} integration`, input.type);
  }
  const contextKeys = contextKeysOf(input.context);
  const connectionIdentifier = allowed
    ? await connectionFor(scope, { ...input, contextKeys, named: input.connectionIdentifier })
    : (input.connectionIdentifier ?? null);
  if (input.createSubscriberIfMissing) await upsertProfile(scope, { subscriberId: input.subscriberId });
  else await getSubscriberOrFail(scope, input.subscriberId);
  const endpoint = newEndpoint(integration, { ...input, contextKeys, connectionIdentifier });
  await insertEndpoint(scope, endpoint);
  return endpointView(endpoint);
}

function newEndpoint(
  integration: Pick<StoredIntegration, '_id' | 'identifier' | 'providerId'>,
  fields: Pick<StoredEndpoint, 'subscriberId' | 'contextKeys' | 'connectionIdentifier' | 'type' | 'endpoint'> & { identifier?: string },
): StoredEndpoint {
  const now = new Date().toISOString();
  return {
    _id: newId(),
    identifier: fields.identifier ?? `ep-${newId()}`,
    providerId: integration.providerId,
    channel: 'chat',
    integrationIdentifier: integration.identifier,
    _integrationId: integration._id,
    connectionIdentifier: fields.connectionIdentifier,
    subscriberId: fields.subscriberId,
    contextKeys: fields.contextKeys,
    type: fields.type,
    endpoint: fields.endpoint,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A user a sign-in named (lib/channels/oauth.ts) as the subscriber's endpoint on the connection;
 * signing in again links nothing twice: the subscriber's same endpoint is returned.
 */
export async function linkUserEndpoint(
  scope: EnvScope,
  integration: Pick<StoredIntegration, '_id' | 'identifier' | 'providerId'>,
  fields: {
    subscriberId: string;
    contextKeys: string[];
    connectionIdentifier: string;
    type: 'slack_user' | 'ms_teams_user';
    userId: string;
  },
): Promise<StoredEndpoint> {
  const same = (await endpointsOfSubscriber(scope, fields.subscriberId)).find(
    (e) =>
      e.integrationIdentifier === integration.identifier &&
      e.type === fields.type &&
      e.connectionIdentifier === fields.connectionIdentifier &&
      'userId' in e.endpoint &&
      e.endpoint.userId === fields.userId,
  );
  if (same) return same;
  const endpoint = newEndpoint(integration, { ...fields, endpoint: { userId: fields.userId } });
  await insertEndpoint(scope, endpoint);
  return endpoint;
}

/**
 * The connection a token-based endpoint posts through: the one named (it must exist and be of the
 * same integration), else the subscriber's own for the context, else the context's shared one.
 */
export async function connectionFor(
  scope: EnvScope,
  input: { integrationIdentifier: string; subscriberId: string; contextKeys: string[]; named?: string | undefined },
): Promise<string> {
  const { named, contextKeys } = input;
  if (named !== undefined) {
    const connection = await getConnection(scope, named);
    if (!connection) throw new NotFoundError(`Channel connection ${named} was not found`);
    if (connection.integrationIdentifier !== input.integrationIdentifier) {
      throw ValidationError.forField('connectionIdentifier', `Channel connection ${named} belongs to another integration`, named);
    }
    return named;
  }
  const claim = (subscriberId: string | null) =>
    connectionIdentifierOfClaim(scope, input.integrationIdentifier, claimResource(subscriberId, contextKeyOf(contextKeys)));
  const own = (await claim(input.subscriberId)) ?? (await claim(null));
  if (!own) {
    const where = contextKeys.length ? ` in context ${contextKeyOf(contextKeys)}` : '';
    throw ValidationError.forField(
      'connectionIdentifier',
      `No channel connection of integration ${input.integrationIdentifier} for subscriber ${input.subscriberId}${where}: ` +
        'connect the workspace first or name a connection',
      undefined,
    );
  }
  return own;
}

export async function getEndpointView(scope: EnvScope, identifier: string): Promise<EndpointView> {
  const endpoint = await getEndpoint(scope, identifier);
  if (!endpoint) throw new NotFoundError(`Channel endpoint ${identifier} was not found`);
  return endpointView(endpoint);
}

/** Replaces the endpoint data; it must fit the endpoint's type (a Slack channel stays a Slack channel). */
export async function updateEndpoint(scope: EnvScope, identifier: string, input: UpdateEndpointInput): Promise<EndpointView> {
  const current = await getEndpoint(scope, identifier);
  if (!current) throw new NotFoundError(`Channel endpoint ${identifier} was not found`);
  const parsed = endpointDataSchemas[current.type].safeParse(input.endpoint);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw ValidationError.forField(
      ['endpoint', ...issue.path].join('.'),
      `Not a ${current.type} endpoint: ${issue.message}`,
      input.endpoint,
    );
  }
  const updated = await updateEndpointData(scope, identifier, parsed.data, new Date().toISOString());
  if (!updated) throw new NotFoundError(`Channel endpoint ${identifier} was not found`);
  return endpointView(updated);
}

export async function removeEndpoint(scope: EnvScope, identifier: string): Promise<void> {
  if (!(await deleteEndpoint(scope, identifier))) throw new NotFoundError(`Channel endpoint ${identifier} was not found`);
}

export async function listEndpoints(scope: EnvScope, query: ListEndpointsQuery) {
  const { subscriberId, channel, providerId, integrationIdentifier, connectionIdentifier, contextKeys } = query;
  const page = await endpointsPage(
    scope,
    { subscriberId, channel, providerId, integrationIdentifier, connectionIdentifier, contextKeys },
    toPageRequest(query, cursorOfShape(LIST_KEY)),
  );
  return { ...cursorList(page, (items) => items.map(endpointView)), totalCount: page.totalCount, totalCountCapped: page.totalCountCapped };
}

export function endpointView(e: StoredEndpoint): EndpointView {
  return {
    identifier: e.identifier,
    channel: e.channel,
    providerId: e.providerId,
    integrationIdentifier: e.integrationIdentifier,
    connectionIdentifier: e.connectionIdentifier,
    subscriberId: e.subscriberId,
    contextKeys: e.contextKeys,
    type: e.type,
    endpoint: e.endpoint as Record<string, unknown>,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
