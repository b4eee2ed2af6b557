import { isBlockDocument } from '../../email/block/document.ts';
import { escapeHtml } from '../../email/block/html.ts';
import { renderBlockEmail } from '../../email/block/render.ts';
import { renderHtmlTemplate } from '../../workflows/templates.ts';
import { inlineCss } from './inline-css.ts';
import { safeHtml } from './sanitize.ts';

// The HTML an email step sends: the rendered body inside the default layout (a minimal document
// that centres the content), then every <style> rule inlined into style attributes (juice,
// inline-css.ts). The layout keeps its rules in a <style> block rather than style attributes so
// that a body's own rules for its classes (`.email-content { ... }`) still win by order, as in a
// browser. `layoutId: null` on the step sends the body alone (still inlined); a body that is
// already a whole document is never wrapped.

const LAYOUT_STYLE = `
body { margin: 0; padding: 0; background-color: #f4f4f5; }
.email-layout { width: 100%; background-color: #f4f4f5; padding: 24px 0; }
.email-content { max-width: 600px; margin: 0 auto; padding: 24px; background-color: #ffffff; color: #1f2937;
  font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; }
`;

const isDocument = (html: string) => /^\s*(<!doctype\s|<html[\s>])/i.test(html);

function withLayout(body: string, subject: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title>`,
    `<style>${LAYOUT_STYLE}</style>`,
    '</head>',
    `<body><div class="email-layout"><div class="email-content">${body}</div></div></body>`,
    '</html>',
  ].join('\n');
}

/**
 * The body as the message keeps it: Liquid with what it inserts HTML-escaped (a payload value is
 * text, `| raw` opts out), then sanitized (sanitize.ts) unless the step sets
 * `disableOutputSanitization`. The subject is a mail header, plain text: it is neither. A body
 * that is a block-editor document is rendered to HTML first (lib/email/block), as the reference
 * decides by the body itself: a fragment when a layout wraps it, else a whole document.
 */
export function emailBody(controlValues: Record<string, unknown>, variables: Record<string, unknown>): string {
  const source = typeof controlValues.body === 'string' ? controlValues.body : '';
  const body = isBlockDocument(source)
    ? renderBlockEmail(source, variables, { fragment: usesLayout(controlValues) })
    : renderHtmlTemplate(source, variables);
  return controlValues.disableOutputSanitization === true ? body : safeHtml(body, 'email');
}

export function emailHtml(body: string, options: { subject: string; layout: boolean }): string {
  const html = options.layout && !isDocument(body) ? withLayout(body, options.subject) : body;
  return inlineCss(html);
}

/** The step's layout choice: `layoutId: null` means none; anything else, the default layout. */
export const usesLayout = (controlValues: Record<string, unknown>): boolean => controlValues.layoutId !== null;
