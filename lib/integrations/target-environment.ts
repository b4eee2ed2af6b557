import { NotFoundError } from '../errors.ts';
import { getEnvironment } from '../accounts/environments.ts';
import type { Caller } from '../auth/caller.ts';

/** The environment an integration is placed in: the caller's, or another of its organization. */
export async function resolveEnvironment(caller: Caller, environmentId: string | undefined): Promise<string> {
  if (environmentId === undefined || environmentId === caller.environmentId) return caller.environmentId;
  if (!(await getEnvironment(caller.organizationId, environmentId))) {
    throw new NotFoundError(`Environment with id ${environmentId} not found`);
  }
  return environmentId;
}
