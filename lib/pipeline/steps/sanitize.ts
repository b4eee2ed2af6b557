import type sanitize from 'sanitize-html';
import type { IOptions } from 'sanitize-html';
import { lazy } from '../../lazy.ts';

// What a rendered message may carry to an inbox or a mail client, after Liquid: HTML through
// sanitize-html with an allow-list of tags and attributes, links and images only to allowed
// schemes, and URL fields (avatar, redirects) dropped when their scheme is not allowed. The
// in-app and email steps call it unless they set `disableOutputSanitization`; sms, chat and push
// content is plain text that no client renders as HTML, so it does not come here (as in the
// reference, whose sanitizer runs on email and in-app outputs only).
// sanitize-html is loaded by the first step or preview that sanitizes (lib/lazy.ts): callers
// `await loadSanitizer()` before `safeHtml` or `safeUrl`.

export type HtmlKind = 'in-app' | 'email';

/** What an image may load. Email adds `cid:`, an attachment of the same mail; never `data:`. */
const IMAGE_SCHEMES = ['http', 'https'];

// Script that only legacy engines run from CSS (IE's expression() and behaviours, Firefox's
// -moz-binding, javascript: in url()). sanitize-html checks style values only through postcss,
// which the bundles leave out (infra/bundling/postcss-stub.cjs), so a style attribute or <style>
// block holding one is dropped whole, after undoing comments and CSS escapes that hide it.
const SCRIPT_IN_CSS = /expression\(|javascript:|vbscript:|livescript:|-moz-binding|behaviou?r:/;

function hidesScript(css: string): boolean {
  const plain = css
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff)))
    .replace(/\\(.)/g, '$1')
    .replace(/[\s\p{Cc}]+/gu, '')
    .toLowerCase();
  return SCRIPT_IN_CSS.test(plain);
}

const shared: IOptions = {
  // Keeps postcss out of the run (and of the bundles): style values are checked by hidesScript.
  parseStyleAttributes: false,
  transformTags: {
    '*': (tagName, attribs) => {
      if (attribs.style === undefined || !hidesScript(attribs.style)) return { tagName, attribs };
      const { style: _, ...rest } = attribs;
      return { tagName, attribs: rest };
    },
  },
  // A <style> block hiding script or holding markup (not CSS: a parser that does not read the block
  // as raw text, inside SVG or MathML, would see elements), and <meta http-equiv=refresh>: a
  // message never navigates by itself.
  exclusiveFilter: (frame) =>
    (frame.tag === 'style' && (frame.text.includes('<') || hidesScript(frame.text))) ||
    (frame.tag === 'meta' && /^\s*refresh\s*$/i.test(frame.attribs['http-equiv'] ?? '')),
};

// The reference's allow-list: sanitize-html's default tags (text, lists, tables, links) and
// attributes, plus images, with `style` on every element. Not <style> blocks: an inbox renders
// in the host page, where a block would restyle the whole page.
const inAppOptions = (defaults: sanitize.IDefaults): IOptions => ({
  ...shared,
  allowedTags: [...defaults.allowedTags, 'img'],
  allowedAttributes: {
    ...defaults.allowedAttributes,
    a: ['href', 'name', 'target', 'rel'],
    '*': ['style'],
  },
  allowedSchemesByTag: { img: IMAGE_SCHEMES },
});

// Email adds what whole documents and mail clients use: the document's tags, <style> blocks, the
// presentational attributes of table layouts, and <center>/<font> of older templates.
const emailOptions = (defaults: sanitize.IDefaults): IOptions => ({
  ...shared,
  allowedTags: [...defaults.allowedTags, 'img', 'style', 'html', 'head', 'body', 'meta', 'title', 'link', 'center', 'font'],
  allowedAttributes: {
    '*': [
      'style',
      'class',
      'id',
      'dir',
      'lang',
      'title',
      'align',
      'valign',
      'width',
      'height',
      'bgcolor',
      'background',
      'border',
      'role',
      'aria-*',
    ],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'alt', 'loading', 'hspace', 'vspace'],
    table: ['cellpadding', 'cellspacing', 'summary'],
    td: ['colspan', 'rowspan', 'nowrap', 'scope'],
    th: ['colspan', 'rowspan', 'nowrap', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'type'],
    ul: ['type'],
    li: ['value'],
    font: ['color', 'face', 'size'],
    html: ['xmlns', 'xmlns:v', 'xmlns:o'],
    meta: ['name', 'content', 'charset', 'http-equiv'],
    link: ['rel', 'href', 'type', 'media'],
    style: ['type', 'media'],
  },
  allowedSchemesByTag: { img: [...IMAGE_SCHEMES, 'cid'] },
  // Allows <style>: sanitize-html would warn on every call otherwise. Its content is checked above.
  allowVulnerableTags: true,
});

const sanitizer = lazy('sanitize-html', async () => {
  const { default: sanitizeHtml } = await import('sanitize-html');
  const options: Record<HtmlKind, IOptions> = { 'in-app': inAppOptions(sanitizeHtml.defaults), email: emailOptions(sanitizeHtml.defaults) };
  /** Where a link may go: sanitize-html's defaults (http, https, ftp, mailto, tel) or a relative URL. */
  const linkSchemes = sanitizeHtml.defaults.allowedSchemes;
  return { sanitizeHtml, options, linkSchemes };
});

export const loadSanitizer = async (): Promise<void> => void (await sanitizer.load());

/** sanitize-html drops the doctype; a whole email document keeps a well-formed one. */
const DOCTYPE = /^\s*<!doctype\s+html(\s+public\s+"[^"<>]*"(\s+"[^"<>]*")?)?\s*>/i;

/** Rendered HTML as it may be stored and sent. Text without `<` holds no markup and is returned as it is. */
export function safeHtml(html: string, kind: HtmlKind): string {
  if (!html.includes('<')) return html;
  const { sanitizeHtml, options } = sanitizer.get();
  const clean = sanitizeHtml(html, options[kind]);
  const doctype = kind === 'email' ? DOCTYPE.exec(html)?.[0].trim() : undefined;
  return doctype ? `${doctype}\n${clean}` : clean;
}

export type UrlKind = 'link' | 'image';

/**
 * A rendered URL field (an avatar, a redirect) as it may be stored, or undefined when it goes
 * somewhere a link must not (`javascript:`, `data:`, ...). Relative URLs are kept. The URL is
 * otherwise kept as rendered, with `"`, `<`, `>` and backquotes percent-encoded as a browser
 * would, so that it cannot leave an HTML attribute it is written into.
 */
export function safeUrl(url: string, kind: UrlKind): string | undefined {
  if (url === '') return url;
  const schemes = kind === 'image' ? IMAGE_SCHEMES : sanitizer.get().linkSchemes;
  // The check is sanitize-html's own for href (control characters, case, protocol-relative), run
  // on the URL as written and as a client writing it into HTML would see it, references decoded.
  const asWritten = url.replace(/&/g, '&amp;');
  if (!keepsHref(asWritten, schemes) || !keepsHref(url, schemes)) return undefined;
  return url.replace(/["<>`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function keepsHref(attributeValue: string, schemes: string[]): boolean {
  const anchor = `<a href="${attributeValue.replace(/"/g, '&quot;')}"></a>`;
  return sanitizer
    .get()
    .sanitizeHtml(anchor, { allowedTags: ['a'], allowedAttributes: { a: ['href'] }, allowedSchemes: schemes })
    .includes(' href=');
}
