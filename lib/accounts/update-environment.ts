import type { Caller } from '../auth/caller.ts';
import { tableName } from '../config.ts';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { applyTracking, trackingOf } from './tracking-settings.ts';
import { keys } from '../store/keys.ts';
import { transact, type TransactItem } from '../store/transact.ts';
import { listApiKeys } from './api-keys.ts';
import { getEnvironment, isProtectedEnvironmentName, type Environment } from './environments.ts';
import { toEnvironmentView } from './list-environments.ts';
import type { UpdateEnvironmentInput } from './manage-schemas.ts';
import { requireOwnEnvironment } from './own-environment.ts';
import type { EnvironmentView } from './schemas.ts';

// PUT /v1/environments/{environmentId}: the caller's own environment's name, application
// identifier, parent, color, inbound-parse domain, bridge URL and (ours) link and open tracking
// (docs/engagement.md). A new name takes the name's marker and a new identifier its lookup item
// in the same transaction as the environment, so two environments never end with one name or
// one identifier; Development and Production keep theirs.

export async function updateEnvironment(caller: Caller, environmentId: string, input: UpdateEnvironmentInput): Promise<EnvironmentView> {
  const current = await requireOwnEnvironment(caller, environmentId, 'update');
  const next: Environment = { ...current };
  const items: TransactItem[] = [];
  const name = input.name?.trim();
  if (name !== undefined && name !== current.name) {
    if (isProtectedEnvironmentName(current.name)) {
      throw ValidationError.forField('name', 'Cannot update the name of Development or Production environments', name);
    }
    if (isProtectedEnvironmentName(name))
      throw ValidationError.forField('name', 'Environment name cannot be Development or Production', name);
    next.name = name;
    if (name.toLowerCase() !== current.name.toLowerCase()) {
      items.push(
        { Put: { TableName: tableName(), Item: nameMarker(current, name), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Delete: { TableName: tableName(), Key: keys.environmentName(current._organizationId, current.name) } },
      );
    }
  }
  if (input.identifier !== undefined && input.identifier !== current.identifier) {
    next.identifier = input.identifier;
    items.push(
      { Put: { TableName: tableName(), Item: identifierItem(next), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: keys.applicationIdentifier(current.identifier) } },
    );
  } else if (next.name !== current.name) {
    items.push({ Put: { TableName: tableName(), Item: identifierItem(next) } });
  }
  if (input.parentId !== undefined) {
    if (input.parentId === current._id) throw new BadRequestError('An environment cannot be its own parent');
    if (!(await getEnvironment(caller.organizationId, input.parentId))) throw new NotFoundError(`Environment ${input.parentId} not found`);
    next._parentId = input.parentId;
  }
  if (input.color !== undefined) next.color = input.color;
  if (input.dns?.inboundParseDomain) next.inboundParseDomain = input.dns.inboundParseDomain;
  if (input.bridge !== undefined) setBridgeUrl(next, input.bridge.url ?? '');
  if (input.tracking !== undefined) next.tracking = applyTracking(trackingOf(current.tracking), input.tracking);

  // The environment as read, so a change made meanwhile is not overwritten unseen.
  items.unshift({
    Put: {
      TableName: tableName(),
      Item: { ...keys.environment(next._organizationId, next._id), type: 'Environment', ...next },
      ConditionExpression: '#name = :name AND identifier = :identifier',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': current.name, ':identifier': current.identifier },
    },
  });
  const refused = await transact(items, { answers: ['ConditionalCheckFailed'] });
  if (refused) {
    const failed = refused.findIndex((code) => code === 'ConditionalCheckFailed');
    const put = items[failed]?.Put?.Item;
    if (put?.type === 'EnvironmentName') throw new BadRequestError('Environment name must be unique');
    if (put?.type === 'ApplicationIdentifier') throw new ConflictError(`Identifier ${next.identifier} is already in use`);
    throw new ConflictError('The environment changed while updating; try again');
  }
  return toEnvironmentView(next, await listApiKeys(caller));
}

function nameMarker(environment: Environment, name: string) {
  const scope = { organizationId: environment._organizationId, environmentId: environment._id };
  return { ...keys.environmentName(environment._organizationId, name), type: 'EnvironmentName', ...scope };
}

function identifierItem(environment: Environment) {
  const scope = { organizationId: environment._organizationId, environmentId: environment._id };
  return { ...keys.applicationIdentifier(environment.identifier), type: 'ApplicationIdentifier', ...scope, name: environment.name };
}

/** An empty URL removes it; any other must be an absolute http(s) URL. */
function setBridgeUrl(environment: Environment, url: string): void {
  if (url === '') {
    delete environment.bridge;
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError('bridge.url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new BadRequestError('bridge.url must be an absolute http(s) URL');
  environment.bridge = { url: parsed.toString() };
}
