import { ValidationError } from '../errors.ts';
import { loadSanitizer, safeHtml } from '../pipeline/steps/sanitize.ts';
import type { EnvScope } from '../scope.ts';
import { schemaExample } from '../workflows/payload-example.ts';
import { loadTemplates, TemplateLimitError } from '../workflows/templates.ts';
import { SUBSCRIBER } from '../workflows/variables.ts';
import { requireLayout } from './lookup.ts';
import { renderLayout } from './render.ts';
import type { LayoutPreview, PreviewLayoutInput } from './schemas.ts';
import { LAYOUT_VARIABLES } from './variables.ts';

// A layout as an email would show it, for an editor: the content slot holds a marked stand-in
// for a step's body, the subscriber is the example's (placeholders), with what the request
// sends over it; HTML and block layouts alike (renderer: render.ts). Like the reference, a layout
// that cannot be rendered (Liquid that fails) answers an empty result, not an error; one over a
// render limit (lib/workflows/templates.ts), a 422.

const CONTENT_PLACEHOLDER =
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>' +
  '<td align="center" style="padding: 24px; border: 1px dashed #9ca3af; color: #6b7280;">The body of each email step goes here</td>' +
  '</tr></table>';

export async function previewLayout(scope: EnvScope, ref: string, input: PreviewLayoutInput): Promise<LayoutPreview> {
  const layout = await requireLayout(scope, ref);
  await Promise.all([loadSanitizer(), loadTemplates()]);
  const email = (input.controlValues ?? layout.controlValues)?.email;
  const subscriber = { ...(schemaExample(SUBSCRIBER, 'subscriber') as Record<string, unknown>), ...input.previewPayload?.subscriber };
  try {
    if (!email) throw new Error('the layout has no email content');
    const body = safeHtml(renderLayout(email, { subscriber, context: {} }, CONTENT_PLACEHOLDER), 'email');
    return { result: { type: 'email', preview: { body } }, previewPayloadExample: { subscriber }, schema: LAYOUT_VARIABLES };
  } catch (error) {
    // A template over a render limit is the author's to fix, as in a step's preview (lib/step-preview).
    if (error instanceof TemplateLimitError) throw ValidationError.forField('controlValues.email.body', error.message, email?.body);
    return { result: { type: 'email' }, previewPayloadExample: {}, schema: null };
  }
}
