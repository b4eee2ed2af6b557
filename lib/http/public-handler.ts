import { buildHandler, type Action } from './handler-chain.ts';
import type { RouteDef } from './route.ts';

// The handler of a route without auth (`auth: 'none'`): the OpenAPI document, tracked links and
// open pixels, provider receipts and webhooks, session openers, OAuth callbacks. Its chain has
// no authentication, so its bundle holds no API-key, session-token or rate-limit code
// (handler-chain.ts); what such a route checks (a signature, a secret) its action checks.

export type PublicRoute = RouteDef & { auth: 'none' };

export function publicHttpHandler<R extends PublicRoute>(route: R, action: Action<R>) {
  return buildHandler(route, action, []);
}
