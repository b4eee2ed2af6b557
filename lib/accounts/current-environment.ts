import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getEnvironment } from './environments.ts';
import type { CurrentEnvironment } from './schemas.ts';

/** The environment an API key belongs to; 404 if it is gone while the key still works. */
export async function getCurrentEnvironment(scope: EnvScope): Promise<CurrentEnvironment> {
  const environment = await getEnvironment(scope.organizationId, scope.environmentId);
  if (!environment) throw new NotFoundError(`Environment ${scope.environmentId} not found`);
  const { _id, name, _organizationId, identifier, bridge, createdAt } = environment;
  // The reference keeps the bridge URL twice, as `bridge` and the older `echo`.
  return { _id, name, _organizationId, identifier, ...(bridge && { bridge, echo: bridge }), createdAt };
}
