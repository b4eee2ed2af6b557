import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { updatedWorkflow } from './build.ts';
import { saveWorkflow } from './repository.ts';
import { requireV1Workflow } from './v1-lookup.ts';
import { toV1Workflow, type V1Workflow } from './v1-view.ts';

/** Switches the workflow on or off; asking for the status it has is a 400, as in the reference. */
export async function setV1WorkflowStatus(caller: Caller, templateId: string, active: boolean): Promise<V1Workflow> {
  const saved = await retryOnStaleWrite(async () => {
    const stored = await requireV1Workflow(caller, templateId);
    const { version: _version, ...current } = stored;
    if (current.active === active) throw new BadRequestError('You must provide a different status from the current status');
    return saveWorkflow(updatedWorkflow(current, { active }, caller.userId), stored);
  });
  return toV1Workflow(saved);
}
