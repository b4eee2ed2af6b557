import { PreparedResponse } from './handler-chain.ts';

// Answers that are not JSON, for routes a browser or a mail client calls directly (the tracked
// links and open pixels of lib/engagement): a redirect, a plain page, an image. None is cached
// (each request is one click or open) and none tells the next site where the visitor came from.

const PRIVATE = { 'cache-control': 'no-store, private', 'referrer-policy': 'no-referrer' };

export function redirectTo(url: string): PreparedResponse {
  return new PreparedResponse({ statusCode: 302, headers: { ...PRIVATE, location: url }, body: '' });
}

export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head>' +
  '<body><h1>Link not found</h1><p>This link is not valid or has expired.</p></body></html>';

/** A plain 404 page: what a link that is not ours, or no longer valid, leads to. */
export function notFoundPage(): PreparedResponse {
  return new PreparedResponse({
    statusCode: 404,
    headers: { ...PRIVATE, 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: NOT_FOUND_PAGE,
  });
}

/** A transparent 1×1 GIF (42 bytes). */
const PIXEL = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export function transparentPixel(): PreparedResponse {
  return new PreparedResponse({
    statusCode: 200,
    headers: { ...PRIVATE, 'content-type': 'image/gif' },
    body: PIXEL,
    isBase64Encoded: true,
  });
}
