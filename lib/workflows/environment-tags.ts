import type { Caller } from '../auth/caller.ts';
import { listWorkflows } from './repository.ts';
import { findEnvironmentByIdentifier, getEnvironment } from '../accounts/environments.ts';
import { requireOwnEnvironment } from '../accounts/own-environment.ts';

// GET /v2/environments/{environmentId}/tags: every tag the environment's workflows carry, each
// once, in name order. The path names the environment by id or by application identifier; an API
// key reads its own environment's only.

export async function environmentTags(caller: Caller, ref: string): Promise<{ name: string }[]> {
  const environmentId = await environmentIdOf(caller, ref);
  await requireOwnEnvironment(caller, environmentId, 'read');
  const workflows = await listWorkflows(caller);
  const tags = new Set(workflows.flatMap((workflow) => workflow.tags));
  return [...tags].sort((a, b) => a.localeCompare(b)).map((name) => ({ name }));
}

async function environmentIdOf(caller: Caller, ref: string): Promise<string> {
  if (await getEnvironment(caller.organizationId, ref)) return ref;
  const byIdentifier = await findEnvironmentByIdentifier(ref);
  return byIdentifier?.organizationId === caller.organizationId ? byIdentifier.environmentId : ref;
}
