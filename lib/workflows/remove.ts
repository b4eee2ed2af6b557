import type { EnvScope } from '../store/keys.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { requireWorkflow } from './lookup.ts';
import { deleteWorkflow } from './repository.ts';

export async function removeWorkflow(scope: EnvScope, ref: string): Promise<void> {
  await retryOnStaleWrite(async () => deleteWorkflow(await requireWorkflow(scope, ref)));
}
