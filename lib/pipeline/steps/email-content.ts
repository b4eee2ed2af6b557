import { blockDocumentOf } from '../../email/block/document.ts';
import { renderBlockEmail } from '../../email/block/render.ts';
import { renderLayout } from '../../layouts/render.ts';
import type { LayoutEmailControls } from '../../layouts/schemas.ts';
import { loadTemplates, renderHtmlTemplate } from '../../workflows/templates.ts';
import { inlineCss, loadInliner } from './inline-css.ts';
import { loadSanitizer, safeHtml } from './sanitize.ts';

// The HTML an email step sends: the rendered body inside the step's layout (lib/layouts/: which
// one, and its rendering), sanitized again as a whole, then every <style> rule inlined into style
// attributes (juice, inline-css.ts). No layout (`layoutId: null`) sends the body alone (still
// inlined); a body that is already a whole document is never wrapped.

/** What emailBody and emailHtml use, loaded on first use (lib/lazy.ts): await it before them. */
export const loadEmailContent = async (): Promise<void> => void (await Promise.all([loadSanitizer(), loadInliner(), loadTemplates()]));

const isDocument = (html: string) => /^\s*(<!doctype\s|<html[\s>])/i.test(html);

/**
 * The body as the message keeps it: Liquid with what it inserts HTML-escaped (a payload value is
 * text, `| raw` opts out), then sanitized (sanitize.ts) unless the step sets
 * `disableOutputSanitization`. The subject is a mail header, plain text: it is neither. A body
 * that is a block-editor document is rendered to HTML first (lib/email/block), as the reference
 * decides by the body itself: a fragment when a layout wraps it, else a whole document.
 */
export function emailBody(
  controlValues: Record<string, unknown>,
  variables: Record<string, unknown>,
  options: { inLayout: boolean; verbatim?: boolean },
): string {
  const source = typeof controlValues.body === 'string' ? controlValues.body : '';
  // Content already rendered (a code-first step's bridge output) is only sanitized.
  const block = options.verbatim ? undefined : blockDocumentOf(source);
  if (options.verbatim) return controlValues.disableOutputSanitization === true ? source : safeHtml(source, 'email');
  const body = block ? renderBlockEmail(block, variables, { fragment: options.inLayout }) : renderHtmlTemplate(source, variables);
  return controlValues.disableOutputSanitization === true ? body : safeHtml(body, 'email');
}

/** The document the provider gets; the layout's HTML is sanitized with the body in it unless the step opts out. */
export function emailHtml(
  body: string,
  controlValues: Record<string, unknown>,
  variables: Record<string, unknown>,
  layout?: LayoutEmailControls,
): string {
  if (!layout || isDocument(body)) return inlineCss(body);
  const html = renderLayout(layout, variables, body);
  return inlineCss(controlValues.disableOutputSanitization === true ? html : safeHtml(html, 'email'));
}
