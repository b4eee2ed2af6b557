import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { chooseEncoding, compress } from './compress.ts';

// The console's built files (console/dist) as answers: hashed assets cached for a year, the page
// itself never cached (a new deployment is seen at once), every view path answered with the page
// (the front end routes it), and nothing outside the directory ever read.

export interface FileAnswer {
  status: 200 | 404;
  headers: Record<string, string>;
  /** Base64 for binary files, text otherwise. */
  body: string;
  isBase64Encoded: boolean;
}

export interface ConsoleSite {
  /** The built files (console/dist). */
  root: string;
  /** The WebSocket API's URL the page's live inbox connects to: the one origin it may reach besides its own. */
  socketUrl?: string | undefined;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const TEXT = new Set(['.html', '.js', '.css', '.svg', '.json']);
const PAGE = 'index.html';
/** Vite's output folder: every name in it carries its content's hash. */
const ASSETS = 'assets/';

/** Files read once per container, by file (not by request path: every view path is the page): they never change while it runs. */
const cache = new Map<string, FileAnswer>();

/**
 * The answer for `path` below /console/ ('' for the page itself), as sent (percent-encoded); a
 * text compressed when the request's `accept-encoding` allows it.
 */
export function consoleFile(site: ConsoleSite, path: string, acceptEncoding?: string): FileAnswer {
  const file = fileFor(site.root, path);
  if (!file) return notFound(site);
  const encoding = chooseEncoding(acceptEncoding);
  const key = `${site.root}\0${site.socketUrl ?? ''}\0${file}\0${encoding ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  // The file system is asked only here, on the first request for a file: every later one is the map.
  const answer = read(site, file);
  if (answer.status !== 200) return answer;
  const sent = encoded(answer, encoding);
  cache.set(key, sent);
  return sent;
}

/** `answer` compressed in `encoding` when it is a text worth compressing; caches told the answer varies by encoding. */
function encoded(answer: FileAnswer, encoding: ReturnType<typeof chooseEncoding>): FileAnswer {
  if (answer.isBase64Encoded) return answer;
  const headers = { ...answer.headers, vary: 'accept-encoding' };
  const body = encoding && compress(answer.body, encoding);
  if (!body) return { ...answer, headers };
  return { ...answer, headers: { ...headers, 'content-encoding': encoding }, body: body.toString('base64'), isBase64Encoded: true };
}

/**
 * The file below `root` that would answer `path`, or undefined (404). A file of Vite's output
 * folder, or a file at the top (favicon.svg); a missing one is 404 (read says so), not the page,
 * so a browser holding an old page sees a clear failure rather than HTML for a script. Any other
 * path is a view of the app (its last segment may hold a dot: a subscriber id like
 * ada@example.com).
 */
function fileFor(root: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  // Never a way out of root: no parent segment, no backslash or NUL in any spelling.
  if (/(^|[/\\])\.\.([/\\]|$)|\\|\0/.test(decoded)) return undefined;
  const isAsset = decoded.startsWith(ASSETS) || (!decoded.includes('/') && Object.hasOwn(TYPES, extname(decoded)));
  if (!isAsset) return PAGE;
  const resolved = normalize(join(root, decoded));
  if (!resolved.startsWith(root.endsWith(sep) ? root : root + sep) || !Object.hasOwn(TYPES, extname(decoded))) return undefined;
  return decoded;
}

function read(site: ConsoleSite, file: string): FileAnswer {
  const full = join(site.root, file);
  if (!existsSync(full) || !statSync(full).isFile()) return notFound(site);
  const extension = extname(file);
  const text = TEXT.has(extension);
  const content = readFileSync(full);
  return {
    status: 200,
    headers: {
      'content-type': TYPES[extension]!,
      'cache-control': file.startsWith(ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...securityHeaders(site.socketUrl),
    },
    body: text ? content.toString('utf8') : content.toString('base64'),
    isBase64Encoded: !text,
  };
}

const notFound = (site: ConsoleSite): FileAnswer => ({
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', ...securityHeaders(site.socketUrl) },
  body: 'Not found',
  isBase64Encoded: false,
});

/** The socket URL's origin (`wss://host[:port]`), the form a CSP source takes; none when unset or not a ws(s) URL. */
function socketOrigin(socketUrl: string | undefined): string | undefined {
  if (!socketUrl) return undefined;
  try {
    const url = new URL(socketUrl);
    return url.protocol === 'ws:' || url.protocol === 'wss:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page holds an API key in sessionStorage, so: scripts only from this origin (no inline
 * script, no eval), connections only to this origin (the API) and the inbox's socket origin, no
 * framing by other sites, no sniffing, no referrer to other origins, no window shared with an
 * opener. Styles may be inline: the live inbox (`@novu/react`) injects its styles at run time.
 * Images may come from any https origin: subscribers' avatars and the inbox's icons. Fonts are
 * the system's (Pico CSS and the inbox load none).
 */
export function securityHeaders(socketUrl: string | undefined): Record<string, string> {
  const connect = ["'self'", socketOrigin(socketUrl)].filter(Boolean).join(' ');
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: https:",
      "font-src 'self' data:",
      `connect-src ${connect}`,
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  };
}
