import type { EnvScope } from '../scope.ts';
import { listApiKeys } from './api-keys.ts';
import type { ApiKeyView } from './api-key-schemas.ts';
import { listEnvironments, type Environment } from './environments.ts';
import { trackingOf } from './tracking-settings.ts';
import type { EnvironmentView } from './schemas.ts';

/**
 * Every environment of the caller's organization (one Query of the organization's partition),
 * oldest first; the API keys, masked, of the caller's own environment only.
 */
export async function listMyEnvironments(scope: EnvScope): Promise<EnvironmentView[]> {
  const [environments, ownKeys] = await Promise.all([listEnvironments(scope.organizationId), listApiKeys(scope)]);
  return environments
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id))
    .map((environment) => toEnvironmentView(environment, environment._id === scope.environmentId ? ownKeys : []));
}

/** The reference's `EnvironmentResponseDto` of an environment, with the API keys given. */
export function toEnvironmentView(environment: Environment, apiKeys: ApiKeyView[]): EnvironmentView {
  const { _id, name, _organizationId, identifier, _parentId, createdAt } = environment;
  return {
    _id,
    name,
    _organizationId,
    identifier,
    type: name === 'Production' ? 'prod' : 'dev',
    ...(_parentId !== undefined && { _parentId }),
    apiKeys,
    tracking: trackingOf(environment.tracking),
    createdAt,
  };
}
