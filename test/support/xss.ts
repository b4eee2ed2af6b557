import { load, type CheerioAPI } from 'cheerio';

// XSS vectors, and what a browser would make of a rendered field: the HTML is parsed by parse5
// (cheerio's full build), the HTML standard's parser, as a browser parses it, namespaces and
// raw-text elements included, so markup that only turns into an element when parsed again
// (mutation XSS) is seen too. `dangersIn` names everything in it that could run script or
// navigate away; `unsafeUrl` does the same for a URL field.

export const HTML_VECTORS: [name: string, html: string][] = [
  ['script element', '<script>alert(1)</script>'],
  ['script from a URL', '<script src="https://evil.test/x.js"></script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['upper-case handler', '<IMG SRC=x ONERROR=alert(1)>'],
  ['body onload', '<body onload=alert(1)>'],
  ['details ontoggle', '<details open ontoggle=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['script inside svg', '<svg><script>alert(1)</script></svg>'],
  ['svg animate href', '<svg><a><animate attributeName=href values=javascript:alert(1) /><text y=20>x</text></a></svg>'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['mixed-case scheme', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['tab reference inside the scheme', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
  ['decimal reference', '<a href="&#106;avascript:alert(1)">x</a>'],
  ['hex references without semicolons', '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>'],
  ['named reference for the colon', '<a href="javascript&colon;alert(1)">x</a>'],
  ['leading space and newline', '<a href=" \n javascript:alert(1)">x</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
  ['data: HTML link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['javascript: image', '<img src="javascript:alert(1)">'],
  ['iframe', '<iframe src="https://evil.test"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['markup inside an iframe', '<iframe><img src=x onerror=alert(1)></iframe>'],
  ['object', '<object data="javascript:alert(1)"></object>'],
  ['embed', '<embed src="javascript:alert(1)">'],
  ['form action', '<form action="javascript:alert(1)"><input type=submit></form>'],
  ['button formaction', '<button formaction="javascript:alert(1)">x</button>'],
  ['style expression()', '<p style="width: expression(alert(1))">x</p>'],
  ['style url(javascript:)', '<p style="background-image: url(javascript:alert(1))">x</p>'],
  ['style with a CSS escape', '<p style="background:url(j\\61vascript:alert(1))">x</p>'],
  ['style with a comment', '<p style="width: expr/**/ession(alert(1))">x</p>'],
  ['style block url(javascript:)', '<style>p { background: url("javascript:alert(1)") }</style><p>x</p>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['base href', '<base href="javascript:alert(1)//">'],
  ['noscript mutation', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['math and style mutation', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['svg and style mutation', '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">'],
  ['xmp', '<xmp><img src=x onerror=alert(1)></xmp>'],
  ['comment break-out', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['template', '<template><img src=x onerror=alert(1)></template>'],
  ['unclosed tag', '<img src="x" onerror="alert(1)"'],
];

export const URL_VECTORS: [name: string, url: string][] = [
  ['javascript:', 'javascript:alert(1)'],
  ['mixed case', 'JaVaScRiPt:alert(1)'],
  ['tab reference', 'jav&#x09;ascript:alert(1)'],
  ['tab', 'jav\tascript:alert(1)'],
  ['decimal reference', '&#106;avascript:alert(1)'],
  ['named reference for the colon', 'javascript&colon;alert(1)'],
  ['leading control character', '\u0001 javascript:alert(1)'],
  ['vbscript:', 'vbscript:msgbox(1)'],
  ['data: HTML', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['data: SVG', 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+'],
  ['attribute break-out', 'https://x.test/" onmouseover="alert(1)'],
];

const SCRIPT_TAGS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'form',
  'svg',
  'math',
  'portal',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'xlink:href',
  'background',
  'poster',
  'data',
  'lowsrc',
  'dynsrc',
  'cite',
  'srcdoc',
]);
const SCRIPT_SCHEME = /^(javascript|vbscript|livescript|data):/;
const SCRIPT_IN_CSS = /expression\(|javascript:|vbscript:|-moz-binding|behaviou?r:/;

// Browsers skip C0 controls and spaces in a URL's scheme.
const plainUrl = (value: string) => value.replace(/[\p{Cc} ]+/gu, '').toLowerCase();
const plainCss = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\(.)/g, '$1')
    .replace(/[\s\p{Cc}]+/gu, '')
    .toLowerCase();

/**
 * What in `html`, parsed as a browser parses it, could run script or navigate: empty when nothing.
 * The parsed document is serialized and parsed again, as a page that copies `innerHTML` would:
 * what only appears then is found too.
 */
export function dangersIn(html: string): string[] {
  const once = load(html);
  return [...new Set([...dangersOf(once), ...dangersOf(load(once.html()))])];
}

function dangersOf($: CheerioAPI): string[] {
  const found: string[] = [];
  $('*').each((_, node) => {
    const element = $(node);
    const tag = String(element.prop('tagName')).toLowerCase();
    if (SCRIPT_TAGS.has(tag)) found.push(`<${tag}>`);
    if (tag === 'meta' && /refresh/i.test(element.attr('http-equiv') ?? '')) found.push('<meta http-equiv=refresh>');
    if (tag === 'style' && SCRIPT_IN_CSS.test(plainCss(element.text()))) found.push(`<style>${element.text()}</style>`);
    for (const [name, value] of Object.entries(element.attr() ?? {})) {
      const attribute = name.toLowerCase();
      if (attribute.startsWith('on')) found.push(`${attribute}=${value}`);
      if (URL_ATTRIBUTES.has(attribute) && SCRIPT_SCHEME.test(plainUrl(value))) found.push(`${attribute}=${value}`);
      if (attribute === 'style' && SCRIPT_IN_CSS.test(plainCss(value))) found.push(`style=${value}`);
    }
  });
  return found;
}

/** Why a URL field is unsafe, as written or written into HTML; undefined when it is safe (or absent). */
export function unsafeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (/["<>`]/.test(url)) return `leaves an attribute: ${url}`;
  const decoded = load(`<a href="${url}"></a>`)('a').attr('href') ?? '';
  for (const view of [url, decoded]) if (SCRIPT_SCHEME.test(plainUrl(view))) return `goes to a script or data URL: ${url}`;
  return undefined;
}
