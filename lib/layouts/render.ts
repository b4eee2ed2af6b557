import { renderBlockEmail } from '../email/block/render.ts';
import { renderHtmlTemplate } from '../workflows/templates.ts';
import { CONTENT_SLOT } from './content.ts';
import type { LayoutEmailControls } from './schemas.ts';
import { layoutVariables } from './variables.ts';

// The one place a layout is rendered around a step's rendered body: block layouts by the block
// renderer, with the body in place of the `content` variable node; HTML layouts by Liquid, whose
// outputs are HTML-escaped except the `{{content}}` slot, which takes the body as HTML. The result
// is sanitized and inlined by the caller (email-content.ts).

const SLOTS = new RegExp(CONTENT_SLOT.source, 'g');

export function renderLayout(email: LayoutEmailControls, stepVariables: Record<string, unknown>, content: string): string {
  const variables = layoutVariables(stepVariables, content);
  if (email.editorType === 'block') return renderBlockEmail(email.body, variables, { fragment: false, content });
  return renderHtmlTemplate(email.body.replace(SLOTS, '{{ content | raw }}'), variables);
}
