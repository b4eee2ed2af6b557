import type { Access } from '../constructs/access.ts';

// What answers a request no route of the table serves (an unknown path, or a known path with
// another method): API Gateway's `$default` route when deployed, the local gateway's last resort
// here. Defined once for both, as the route table is; it answers 404 in the service's one error
// body, which the official SDKs parse, instead of API Gateway's bare `{"message":"Not Found"}`.
export const fallbackRoute = {
  operationId: 'routeNotFound',
  handler: 'functions/http/not-found.ts',
  access: 'none' as Access,
} as const;
