// Finding the links a message's content holds, and putting tracked ones in their place. HTML
// (email): the `href` of every `<a>`; plain text (sms, chat): every http(s) URL in the text. Only
// absolute http(s) URLs of printable ASCII are tracked (a redirect sends the browser to exactly
// the URL stored, which a header can carry only so); `mailto:`, `tel:`, anchors, relative links,
// unsubscribe links (by their URL or a `data-unsubscribe` attribute) and links marked
// `data-no-track` are left as they are.

export type ContentFormat = 'html' | 'text';

const ANCHOR = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)')/i;
const TEXT_URL = /https?:\/\/[^\s<>"'|]+/g;
/** Punctuation that ends a sentence rather than the URL in plain text. */
const TRAILING = /[.,;:!?)\]}>*_~]+$/;
const UNSUBSCRIBE = /unsubscribe|opt[-_]?out/i;

/** Whether a link's URL is one to track. */
export function isTrackable(url: string): boolean {
  if (!/^https?:\/\/[\x21-\x7e]+$/i.test(url) || UNSUBSCRIBE.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** An attribute value as the browser reads it (the character references a renderer writes). */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

interface Found {
  url: string;
  /** Where the replaced text starts and ends in the content. */
  start: number;
  end: number;
  /** What replaces it, given the tracked URL. */
  write: (tracked: string) => string;
}

function found(content: string, format: ContentFormat): Found[] {
  const out: Found[] = [];
  if (format === 'html') {
    for (const match of content.matchAll(ANCHOR)) {
      const tag = match[0];
      if (/\sdata-(no-track|unsubscribe)\b/i.test(tag)) continue;
      const href = HREF.exec(tag);
      if (!href) continue;
      const url = decodeAttribute((href[2] ?? href[3] ?? '').trim());
      if (!isTrackable(url)) continue;
      const start = match.index + href.index;
      out.push({ url, start, end: start + href[0].length, write: (tracked) => `${href[1]}"${tracked}"` });
    }
  } else {
    for (const match of content.matchAll(TEXT_URL)) {
      const url = match[0].replace(TRAILING, '');
      if (!isTrackable(url)) continue;
      out.push({ url, start: match.index, end: match.index + url.length, write: (tracked) => tracked });
    }
  }
  return out;
}

/** The distinct trackable URLs of the content, in order of first appearance. */
export function linksOf(content: string, format: ContentFormat): string[] {
  return [...new Set(found(content, format).map((f) => f.url))];
}

/** The content with each trackable link replaced by `tracked(index of its URL in linksOf)`. */
export function withTrackedLinks(content: string, format: ContentFormat, tracked: readonly string[]): string {
  const urls = linksOf(content, format);
  let out = '';
  let at = 0;
  for (const f of found(content, format)) {
    const replacement = tracked[urls.indexOf(f.url)];
    if (replacement === undefined) continue;
    out += content.slice(at, f.start) + f.write(replacement);
    at = f.end;
  }
  return out + content.slice(at);
}

/** The HTML with the open pixel as the last thing of its body. */
export function withPixel(html: string, pixelUrl: string): string {
  const img = `<img src="${pixelUrl}" width="1" height="1" alt="" style="border:0;width:1px;height:1px" />`;
  const close = html.search(/<\/body\s*>/i);
  return close === -1 ? html + img : html.slice(0, close) + img + html.slice(close);
}
