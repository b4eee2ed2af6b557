import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

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

/** Files read once per container: they never change while it runs. */
const cache = new Map<string, FileAnswer>();

/** The answer for `path` below /console/ ('' for the page itself). */
export function consoleFile(root: string, path: string): FileAnswer {
  const cached = cache.get(`${root}\0${path}`);
  if (cached) return cached;
  const answer = read(root, path);
  if (answer.status === 200) cache.set(`${root}\0${path}`, answer);
  return answer;
}

function read(root: string, path: string): FileAnswer {
  const extension = extname(path);
  // A path without an extension is a view of the app: the page answers it.
  if (!extension) return file(root, 'index.html', 'no-cache');
  const resolved = normalize(join(root, path));
  if (!resolved.startsWith(root + sep) || !existsSync(resolved) || !TYPES[extension]) return notFound();
  return file(root, path, path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
}

function file(root: string, path: string, cacheControl: string): FileAnswer {
  const full = join(root, path);
  if (!existsSync(full)) return notFound();
  const extension = extname(path);
  const text = TEXT.has(extension);
  const content = readFileSync(full);
  return {
    status: 200,
    headers: { 'content-type': TYPES[extension]!, 'cache-control': cacheControl, ...SECURITY_HEADERS },
    body: text ? content.toString('utf8') : content.toString('base64'),
    isBase64Encoded: !text,
  };
}

const notFound = (): FileAnswer => ({
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS },
  body: 'Not found',
  isBase64Encoded: false,
});

// The page holds an API key in sessionStorage: no framing by other sites, no sniffing, no
// referrer to other origins, and scripts only from this origin.
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};
