import { BridgeCallError } from '../bridge/call-result.ts';
import { storedBridgeUrl } from '../bridge/environment.ts';
import { BadRequestError } from '../errors.ts';
import { emailBody, loadEmailContent } from '../pipeline/steps/email-content.ts';
import { loadSanitizer, safeHtml } from '../pipeline/steps/sanitize.ts';
import type { EnvScope } from '../scope.ts';
import { askBridge } from '../bridge/outbound-ask.ts';
import { findStep } from '../workflows/get-step.ts';
import { requireWorkflow } from '../workflows/lookup.ts';
import type { StoredStep } from '../workflows/model.ts';
import { payloadExample, schemaExample } from '../workflows/payload-example.ts';
import type { PreviewStepInput, StepPreview } from '../workflows/step-schemas.ts';
import { loadTemplates, renderTemplate } from '../workflows/templates.ts';
import { SUBSCRIBER } from '../workflows/variables.ts';

// A step's content as it would be sent, for an editor, with the example payload and subscriber
// (what the request sends over them). A code-first step's preview is its bridge's own
// (`POST ?action=preview`, signed, one attempt: the caller waits), asked through the outbound
// consumer (lib/bridge/outbound-*.ts); a dashboard step's is rendered here with the pipeline's renderers
// (Liquid, then the same sanitizers). Content that cannot be rendered answers the result without
// a preview, as the reference does. An area of its own: it draws on the workflows, the
// pipeline's renderers and the bridge, none of which should know of it.

export async function previewStep(scope: EnvScope, workflowRef: string, stepRef: string, input: PreviewStepInput): Promise<StepPreview> {
  const workflow = await requireWorkflow(scope, workflowRef);
  const step = findStep(workflow, stepRef);
  const sent = input.previewPayload ?? {};
  const example = {
    subscriber: { ...(schemaExample(SUBSCRIBER, 'subscriber') as Record<string, unknown>), ...sent.subscriber },
    payload: { ...payloadExample(workflow), ...sent.payload },
    ...(sent.steps && { steps: sent.steps }),
    ...(sent.context && { context: sent.context }),
  };
  const controls = input.controlValues ?? step.controlValues;
  if (workflow.origin !== 'external') await (step.type === 'email' ? loadEmailContent() : Promise.all([loadSanitizer(), loadTemplates()]));
  const preview =
    workflow.origin === 'external'
      ? await bridgePreview(scope, workflow.workflowId, step, controls, example, sent)
      : renderPreview(step, controls, { steps: {}, context: {}, ...example });
  return {
    result: { type: step.type, ...(preview && { preview }) },
    previewPayloadExample: example,
    schema: workflow.payloadSchema,
  };
}

async function bridgePreview(
  scope: EnvScope,
  workflowId: string,
  step: StoredStep,
  controls: Record<string, unknown>,
  example: { subscriber: Record<string, unknown>; payload: Record<string, unknown> },
  sent: NonNullable<PreviewStepInput['previewPayload']>,
): Promise<Record<string, unknown> | undefined> {
  const url = await storedBridgeUrl(scope);
  if (!url) throw new BadRequestError('Bridge URL not found: run `npx novu sync` for this environment first');
  try {
    const { body } = await askBridge(scope, {
      url,
      action: 'preview',
      signed: true,
      query: { workflowId, stepId: step.stepId },
      body: { payload: example.payload, controls, state: [], subscriber: example.subscriber, context: sent.context ?? {} },
      attempts: 1,
    });
    const outputs = (body as { outputs?: unknown } | undefined)?.outputs;
    return outputs && typeof outputs === 'object' ? (outputs as Record<string, unknown>) : undefined;
  } catch (error) {
    if (error instanceof BridgeCallError) throw new BadRequestError(`Bridge preview failed: ${error.message}`);
    throw error;
  }
}

function renderPreview(step: StoredStep, values: Record<string, unknown>, variables: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === 'string' ? renderTemplate(v, variables) : undefined);
  const sanitize = values.disableOutputSanitization !== true;
  const inApp = (v: unknown) => {
    const rendered = text(v);
    return rendered === undefined || !sanitize ? rendered : safeHtml(rendered, 'in-app');
  };
  try {
    switch (step.type) {
      case 'email':
        return { subject: text(values.subject) ?? '', body: emailBody(values, variables, { inLayout: false }) };
      case 'in_app':
        return {
          ...(values.subject !== undefined && { subject: inApp(values.subject) }),
          body: inApp(values.body) ?? '',
          ...(values.avatar !== undefined && { avatar: text(values.avatar) }),
          ...(values.primaryAction !== undefined && { primaryAction: values.primaryAction }),
          ...(values.secondaryAction !== undefined && { secondaryAction: values.secondaryAction }),
          ...(values.redirect !== undefined && { redirect: values.redirect }),
          ...(values.data !== undefined && { data: values.data }),
        };
      case 'push':
        return { subject: text(values.subject) ?? '', body: text(values.body) ?? '' };
      case 'sms':
      case 'chat':
        return { body: text(values.body) ?? '' };
      default:
        return values;
    }
  } catch {
    return undefined;
  }
}
