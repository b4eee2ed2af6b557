import type { EnvScope } from '../scope.ts';
import { ForbiddenError, NotFoundError } from '../errors.ts';
import { getEnvironment, type Environment } from './environments.ts';

// An API key acts for its own environment only: another environment of its organization is
// refused (403, as the reference refuses an environment-scoped credential), one of another
// organization is not found (404: its existence is not told).

export async function requireOwnEnvironment(caller: EnvScope, environmentId: string, action: string): Promise<Environment> {
  const environment = await getEnvironment(caller.organizationId, environmentId);
  if (!environment) throw new NotFoundError(`Environment ${environmentId} not found`);
  if (environment._id !== caller.environmentId) throw new ForbiddenError(scopedMessage(`${action} a different environment`));
  return environment;
}

/** The refusal of an API key reaching past its environment. */
export const scopedMessage = (what: string): string =>
  `API key authentication is scoped to a single environment and cannot ${what}. Use an API key of that environment.`;
