import type { EnvScope } from '../scope.ts';
import { listApiKeys } from './api-keys.ts';
import { listEnvironments } from './environments.ts';
import type { EnvironmentView } from './schemas.ts';

/**
 * Every environment of the caller's organization (one Query of the organization's partition),
 * oldest first; the API keys, masked, of the caller's own environment only.
 */
export async function listMyEnvironments(scope: EnvScope): Promise<EnvironmentView[]> {
  const [environments, ownKeys] = await Promise.all([listEnvironments(scope.organizationId), listApiKeys(scope)]);
  return environments
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id))
    .map(({ _id, name, _organizationId, identifier, _parentId, createdAt }) => ({
      _id,
      name,
      _organizationId,
      identifier,
      type: name === 'Production' ? ('prod' as const) : ('dev' as const),
      ...(_parentId !== undefined && { _parentId }),
      apiKeys: _id === scope.environmentId ? ownKeys : [],
      createdAt,
    }));
}
