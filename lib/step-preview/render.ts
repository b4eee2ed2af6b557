import { emailBody, loadEmailContent } from '../pipeline/steps/email-content.ts';
import { loadSanitizer, safeHtml } from '../pipeline/steps/sanitize.ts';
import type { StepType } from '../workflows/model.ts';
import { schemaExample } from '../workflows/payload-example.ts';
import type { PreviewStepInput } from '../workflows/step-schemas.ts';
import { ValidationError } from '../errors.ts';
import { loadTemplates, renderTemplate, TemplateLimitError } from '../workflows/templates.ts';
import { SUBSCRIBER } from '../workflows/variables.ts';

// A dashboard step's preview as the pipeline would render it, shared by the saved step's preview
// (preview.ts) and a draft's (draft.ts); apart from preview.ts so a draft's function carries
// neither the bridge nor the workflow store.

/** What a preview renders with: the example subscriber and payload, under what the request sends. */
export function previewExample(payload: Record<string, unknown> | null, sent: NonNullable<PreviewStepInput['previewPayload']>) {
  return {
    subscriber: { ...(schemaExample(SUBSCRIBER, 'subscriber') as Record<string, unknown>), ...sent.subscriber },
    payload: { ...payload, ...sent.payload },
    ...(sent.steps && { steps: sent.steps }),
    ...(sent.context && { context: sent.context }),
  };
}

/** A dashboard step's content rendered with the pipeline's renderers; undefined when it cannot be. */
export async function renderPreview(type: StepType, values: Record<string, unknown>, example: Record<string, unknown>) {
  await (type === 'email' ? loadEmailContent() : Promise.all([loadSanitizer(), loadTemplates()]));
  const variables = { steps: {}, context: {}, ...example };
  // A template over a render limit (templates.ts) is the author's to fix: a 422 naming its
  // control, where other content that cannot be rendered only leaves the preview out.
  const field = <T>(name: string, render: () => T): T => {
    try {
      return render();
    } catch (error) {
      if (error instanceof TemplateLimitError) throw ValidationError.forField(`controlValues.${name}`, error.message, values[name]);
      throw error;
    }
  };
  const text = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? field(name, () => renderTemplate(v, variables)) : undefined;
  };
  const sanitize = values.disableOutputSanitization !== true;
  const inApp = (name: string) => {
    const rendered = text(name);
    return rendered === undefined || !sanitize ? rendered : safeHtml(rendered, 'in-app');
  };
  try {
    switch (type) {
      case 'email':
        return { subject: text('subject') ?? '', body: field('body', () => emailBody(values, variables, { inLayout: false })) };
      case 'in_app':
        return {
          ...(values.subject !== undefined && { subject: inApp('subject') }),
          body: inApp('body') ?? '',
          ...(values.avatar !== undefined && { avatar: text('avatar') }),
          ...(values.primaryAction !== undefined && { primaryAction: values.primaryAction }),
          ...(values.secondaryAction !== undefined && { secondaryAction: values.secondaryAction }),
          ...(values.redirect !== undefined && { redirect: values.redirect }),
          ...(values.data !== undefined && { data: values.data }),
        };
      case 'push':
        return { subject: text('subject') ?? '', body: text('body') ?? '' };
      case 'sms':
      case 'chat':
        return { body: text('body') ?? '' };
      default:
        return values;
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    return undefined;
  }
}
