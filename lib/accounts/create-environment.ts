import type { Caller } from '../auth/caller.ts';
import { hashApiKey } from '../auth/api-keys.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.ts';
import { isProtectedEnvironmentName, listEnvironments } from './environments.ts';
import { toEnvironmentView } from './list-environments.ts';
import type { CreateEnvironmentInput } from './manage-schemas.ts';
import { provisionEnvironment } from './provision.ts';
import type { EnvironmentView } from './schemas.ts';

// POST /v1/environments: a custom environment of the caller's organization, made as Development
// and Production were (lib/accounts/provision.ts): its application identifier, an API key, the
// starter integrations and the default layout. The answer carries the new API key in clear: the
// only time it is shown, and the only way to act in the new environment (an API key acts for
// its own environment only). Calls with an idempotency key answer a retry with the same key.

/** Environments an organization may have, Development and Production included. */
export const MAX_ENVIRONMENTS = 10;

export async function createEnvironment(caller: Caller, input: CreateEnvironmentInput): Promise<EnvironmentView> {
  const name = input.name.trim();
  if (isProtectedEnvironmentName(name))
    throw ValidationError.forField('name', 'Environment name cannot be Development or Production', name);
  const existing = await listEnvironments(caller.organizationId);
  if (existing.length >= MAX_ENVIRONMENTS) {
    throw new BadRequestError(`An organization can have at most ${MAX_ENVIRONMENTS} environments`);
  }
  if (existing.some((environment) => environment.name.toLowerCase() === name.toLowerCase())) {
    throw new BadRequestError('Environment name must be unique');
  }
  if (input.parentId !== undefined && !existing.some((environment) => environment._id === input.parentId)) {
    throw new NotFoundError(`Environment ${input.parentId} not found`);
  }
  const { environment, apiKey } = await provisionEnvironment(caller.organizationId, caller.userId, name, input.parentId, {
    color: input.color,
  });
  return toEnvironmentView(environment, [
    { key: apiKey, _userId: caller.userId, hash: hashApiKey(apiKey), createdAt: environment.createdAt },
  ]);
}
