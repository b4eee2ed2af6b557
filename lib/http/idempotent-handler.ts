import { httpHandler, type Action, type Around, type AuthRoute } from './handler.ts';
import { runIdempotently } from './idempotency.ts';
import type { IdempotentMethod } from './route.ts';

// The handler of a POST or PATCH route: httpHandler plus the `idempotency-key` header. A request
// without the header, or on a subscriber's route (no organization to scope the key), just runs.

const aroundIdempotencyKey: Around = (event, context, run) => {
  const key = event.headers?.['idempotency-key'];
  if (key === undefined || !event.caller) return run();
  return runIdempotently({ organizationId: event.caller.organizationId, key, body: event.input?.body ?? null }, context, run);
};

export function idempotentHttpHandler<R extends AuthRoute & { method: IdempotentMethod }>(route: R, action: Action<R>) {
  return httpHandler(route, action, aroundIdempotencyKey);
}
