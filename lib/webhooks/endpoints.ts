import { NotFoundError } from '../errors.ts';
import { newId } from '../ids.ts';
import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import type { EnvScope } from '../scope.ts';
import { deleteEndpoint, endpointsPage, getEndpoint, insertEndpoint, updateEndpoint } from './repository.ts';
import type { CreateEndpointInput, Endpoint, EndpointList, EndpointPatch, EndpointWithSecret, ListEndpointsQuery } from './schemas.ts';
import { newEndpointSecret } from './secret.ts';

// The use cases of /v2/webhooks/endpoints: an environment's endpoints, each with its own signing
// secret, shown only when made (create, rotate).

const notFound = (endpointId: string) => new NotFoundError(`Webhook endpoint with id ${endpointId} not found`);

export async function createEndpoint(scope: EnvScope, input: CreateEndpointInput): Promise<EndpointWithSecret> {
  const now = new Date().toISOString();
  const endpoint: Endpoint = {
    _id: newId(Date.parse(now)),
    url: input.url,
    description: input.description ?? '',
    eventTypes: [...new Set(input.eventTypes ?? [])],
    enabled: input.enabled ?? true,
    _environmentId: scope.environmentId,
    _organizationId: scope.organizationId,
    createdAt: now,
    updatedAt: now,
  };
  const secret = newEndpointSecret();
  await insertEndpoint(scope, endpoint, secret);
  return { ...endpoint, secret };
}

export async function requireEndpoint(scope: EnvScope, endpointId: string): Promise<Endpoint> {
  const endpoint = await getEndpoint(scope, endpointId);
  if (!endpoint) throw notFound(endpointId);
  return endpoint;
}

/** `EP#<id>` as webhookEndpoint builds it. */
const ENDPOINT_KEY = /^EP#[0-9a-f]{24}$/;

export async function listEndpoints(scope: EnvScope, query: ListEndpointsQuery): Promise<EndpointList> {
  return cursorList(await endpointsPage(scope, toPageRequest(query, cursorOfShape(ENDPOINT_KEY))));
}

export async function changeEndpoint(scope: EnvScope, endpointId: string, patch: EndpointPatch): Promise<Endpoint> {
  const eventTypes = patch.eventTypes && [...new Set(patch.eventTypes)];
  const updated = await updateEndpoint(scope, endpointId, { ...patch, ...(eventTypes && { eventTypes }) }, new Date().toISOString());
  if (!updated) throw notFound(endpointId);
  return updated;
}

/** A new secret replaces the old one at once: deliveries from now on are signed with it. */
export async function rotateEndpointSecret(scope: EnvScope, endpointId: string): Promise<EndpointWithSecret> {
  const secret = newEndpointSecret();
  const updated = await updateEndpoint(scope, endpointId, { secret }, new Date().toISOString());
  if (!updated) throw notFound(endpointId);
  return { ...updated, secret };
}

export async function removeEndpoint(scope: EnvScope, endpointId: string): Promise<void> {
  if (!(await deleteEndpoint(scope, endpointId))) throw notFound(endpointId);
}
