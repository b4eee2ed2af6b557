import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { parseOrThrow } from '../http/validation.ts';
import { withLayoutIdentifiers } from '../layouts/step-layouts.ts';
import { stepIdOf, type ReadStep } from './build.ts';
import { checkCodeControls } from './code-controls.ts';
import { requireWorkflow } from './lookup.ts';
import type { StepType, StoredWorkflow } from './model.ts';
import { patchWorkflow } from './patch.ts';
import { dashboardSteps, type SentStep, type UpdateWorkflowInput, type WorkflowResponse } from './schemas.ts';
import { loadTemplates, readSteps } from './templates.ts';

// PUT: the steps sent replace the stored ones (matched by stepId), other fields sent replace
// theirs. A dashboard workflow's steps are checked against their kinds' control schemas. A
// code-first (`external`) workflow's steps are its code's: the PUT may set their control values,
// each checked against the control schema the code declared and kept as sent (as PUT
// /v1/bridge/controls does), but not add, drop, reorder or change the kind of a step, which only
// a sync of the code does.

export async function updateWorkflow(caller: Caller, ref: string, input: UpdateWorkflowInput): Promise<WorkflowResponse> {
  const current = await requireWorkflow(caller, ref);
  const steps = current.origin === 'external' ? await codeSteps(current, input.steps) : await dashboardStepsOf(input);
  return patchWorkflow(caller, ref, { ...input, steps: await withLayoutIdentifiers(caller, steps) });
}

async function dashboardStepsOf(input: UpdateWorkflowInput): Promise<ReadStep[]> {
  const { steps } = parseOrThrow(dashboardSteps, input, 'body');
  await loadTemplates();
  return readSteps(steps);
}

async function codeSteps(workflow: StoredWorkflow, sent: readonly SentStep[]): Promise<ReadStep[]> {
  const declared = workflow.steps.map((s) => `${s.stepId} (${s.type})`);
  const given = sent.map((s) => `${stepIdOf(s)} (${s.type})`);
  if (given.join() !== declared.join()) {
    throw new BadRequestError(
      `The steps of code-first workflow ${workflow.workflowId} come from its code: send ${declared.join(', ') || 'no steps'} ` +
        `in that order (got ${given.join(', ') || 'none'}); run \`npx novu sync\` to change them`,
    );
  }
  return Promise.all(
    sent.map(async (step, index) => {
      const schema = workflow.steps[index]!.bridge?.controlSchema;
      const controlValues = schema ? withoutClientDefaults(step, schema) : step.controlValues;
      if (schema) await checkCodeControls(schema, controlValues, `steps.${index}.controlValues`);
      return { ...step, controlValues, templateReadings: [] } as ReadStep;
    }),
  );
}

/**
 * What @novu/api (3.19.1) puts in every step of its kind on its own, dashboard settings a
 * code-first step takes from its code (its options, its outputs) rather than from controls.
 */
const CLIENT_DEFAULTS: Partial<Record<StepType, Record<string, unknown>>> = {
  in_app: { disableOutputSanitization: false },
  email: { editorType: 'block', disableOutputSanitization: false },
  delay: { type: 'regular' },
  throttle: { type: 'fixed', threshold: 1 },
};

/**
 * The values without those defaults where the code declares no such control, so an update made
 * with the client is not refused for what the caller never wrote. Any other value of such a key
 * stays, for the code's schema to refuse by name.
 */
function withoutClientDefaults(step: SentStep, schema: Record<string, unknown>): Record<string, unknown> {
  const declared = (schema.properties ?? {}) as Record<string, unknown>;
  const values = { ...step.controlValues };
  for (const [key, value] of Object.entries(CLIENT_DEFAULTS[step.type] ?? {})) {
    if (!(key in declared) && values[key] === value) delete values[key];
  }
  return values;
}
