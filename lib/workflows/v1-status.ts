import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { updatedWorkflow } from './build.ts';
import { changeWorkflow } from './change.ts';
import { requireV1Workflow } from './v1-lookup.ts';
import { toV1Workflow, type V1Workflow } from './v1-view.ts';

/** Switches the workflow on or off; asking for the status it has is a 400, as in the reference. */
export async function setV1WorkflowStatus(caller: Caller, templateId: string, active: boolean): Promise<V1Workflow> {
  const saved = await changeWorkflow(
    caller,
    templateId,
    (current) => {
      if (current.active === active) throw new BadRequestError('You must provide a different status from the current status');
      return updatedWorkflow(current, { active }, caller.userId);
    },
    requireV1Workflow,
  );
  return toV1Workflow(saved);
}
