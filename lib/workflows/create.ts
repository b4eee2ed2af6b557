import type { Caller } from '../auth/caller.ts';
import { newWorkflow } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { assertPayloadSchema } from './payload-schema.ts';
import { saveWorkflow } from './repository.ts';
import type { CreateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { loadTemplates, readSteps } from './templates.ts';
import { toWorkflowResponse } from './view.ts';
import { withLayoutIdentifiers } from '../layouts/step-layouts.ts';

/** A new workflow in the caller's environment; its workflowId (default: the slugified name) must be free (409). */
export async function createWorkflow(caller: Caller, input: CreateWorkflowInput): Promise<WorkflowResponse> {
  await Promise.all([assertPayloadSchema(input.payloadSchema), loadTemplates()]);
  const saved = await saveWorkflow(newWorkflow(caller, { ...input, steps: await withLayoutIdentifiers(caller, readSteps(input.steps)) }));
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}
