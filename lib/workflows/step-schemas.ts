import * as z from '../zod.ts';
import { STEP_TYPES } from './model.ts';

// One step of a workflow (GET /v2/workflows/{workflowId}/steps/{stepId}) and its preview
// (POST /v2/workflows/{workflowId}/step/{stepId}/preview): what `@novu/api`
// workflows.steps.retrieve and workflows.steps.generatePreview send and read; and the preview of
// a step not saved yet (POST /v2/workflows/steps/preview, ours), answered in the same shape.

export const workflowStepParams = z.object({
  workflowId: z.string().check(z.minLength(1), z.maxLength(512)),
  stepId: z.string().check(z.minLength(1), z.maxLength(512)),
});

const object = (name: string) => z.record(z.string(), z.unknown(), { error: `${name} must be an object` });

export const previewStepBody = z.object({
  controlValues: z.optional(object('controlValues')),
  previewPayload: z.optional(
    z.object({
      subscriber: z.optional(object('previewPayload.subscriber')),
      actor: z.optional(object('previewPayload.actor')),
      payload: z.optional(object('previewPayload.payload')),
      steps: z.optional(object('previewPayload.steps')),
      context: z.optional(object('previewPayload.context')),
      env: z.optional(object('previewPayload.env')),
    }),
  ),
});
export type PreviewStepInput = z.infer<typeof previewStepBody>;

/** A step not saved yet (an editor's draft): its kind, its values and the workflow's payload schema, over the same preview payload. */
export const previewDraftStepBody = z.object({
  type: z.enum(STEP_TYPES),
  controlValues: z.optional(object('controlValues')),
  payloadSchema: z.optional(z.nullable(object('payloadSchema'))),
  previewPayload: previewStepBody.shape.previewPayload,
});
export type PreviewDraftStepInput = z.infer<typeof previewDraftStepBody>;

export const stepPreviewSchema = z
  .object({
    result: z.object({ type: z.string(), preview: z.optional(z.record(z.string(), z.unknown())) }),
    previewPayloadExample: z.record(z.string(), z.unknown()),
    schema: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  })
  .register(z.globalRegistry, { id: 'StepPreview' });
export type StepPreview = z.infer<typeof stepPreviewSchema>;
