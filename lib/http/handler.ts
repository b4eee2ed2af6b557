import { authenticate, authenticateSubscriber } from './authenticate.ts';
import { buildHandler, type Action, type Around } from './handler-chain.ts';
import type { Middleware } from './middleware.ts';
import { rateLimit } from './rate-limit.ts';
import type { HttpMethod, IdempotentMethod, RouteAuth, RouteDef } from './route.ts';

// The handler of a route that knows its caller: an API key (then its environment's rate limit)
// or a subscriber's session token, checked before the input is validated (handler-chain.ts).
// Routes without auth use publicHttpHandler (public-handler.ts), whose bundles hold none of this.

export { enveloped, PreparedResponse, withHeaders, withWarning, type Action, type ActionRequest, type Around } from './handler-chain.ts';

/** A route whose caller is authenticated. */
export type AuthRoute = RouteDef & { auth: Exclude<RouteAuth, 'none'> };

/**
 * An authenticated route without the idempotency key: its method has none, or it is not an
 * API-key route (the key is scoped to the organization of an API key). API-key POST and PATCH
 * routes go through idempotentHttpHandler.
 */
export type PlainRoute = AuthRoute & ({ method: Exclude<HttpMethod, IdempotentMethod> } | { auth: 'subscriber' });

function guardsOf(route: AuthRoute): Middleware[] {
  return route.auth === 'apiKey' ? [authenticate(), rateLimit(route)] : [authenticateSubscriber()];
}

export function httpHandler<R extends PlainRoute>(route: R, action: Action<R>): ReturnType<typeof buildHandler<R>>;
export function httpHandler<R extends AuthRoute>(route: R, action: Action<R>, around: Around): ReturnType<typeof buildHandler<R>>;
export function httpHandler<R extends AuthRoute>(route: R, action: Action<R>, around?: Around) {
  return buildHandler(route, action, guardsOf(route), around);
}
