import type { Caller } from '../auth/caller.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { listEnvironments } from '../accounts/environments.ts';
import { scopedMessage } from '../accounts/own-environment.ts';

// The two environments of a diff or publish: the target the path names and the source the body
// names (Development when it names none, as the reference's). Both must be environments of the
// caller's organization, and the source the caller's own: an API key publishes its own
// environment's workflows into another of its organization, as the workflow sync does, and never
// copies another environment's (docs/differences.md, "Environment promotion").

export interface EnvironmentPair {
  source: EnvScope;
  target: EnvScope;
}

export async function resolveEnvironmentPair(
  caller: Caller,
  targetEnvironmentId: string,
  sourceEnvironmentId?: string,
): Promise<EnvironmentPair> {
  const environments = await listEnvironments(caller.organizationId);
  const sourceId = sourceEnvironmentId ?? environments.find((environment) => environment.name === 'Development')?._id;
  if (!sourceId) throw new BadRequestError('Development environment not found');
  if (sourceId === targetEnvironmentId) throw new BadRequestError('Source and target environments cannot be the same');
  for (const id of [targetEnvironmentId, sourceId]) {
    if (!environments.some((environment) => environment._id === id)) throw new NotFoundError(`Environment ${id} not found`);
  }
  if (sourceId !== caller.environmentId) throw new ForbiddenError(scopedMessage('publish from a different environment'));
  const scope = (environmentId: string): EnvScope => ({ organizationId: caller.organizationId, environmentId });
  return { source: scope(sourceId), target: scope(targetEnvironmentId) };
}
