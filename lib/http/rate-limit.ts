import type { MiddlewareObj } from '@middy/core';
import { TooManyRequestsError } from '../errors.ts';
import { checkRateLimit } from '../rate-limits/check.ts';
import { DEFAULT_CATEGORY, WINDOW_SECONDS, type RateLimitCost } from '../rate-limits/policy.ts';
import type { HttpEvent } from './middleware.ts';
import type { HttpResponse } from './responses.ts';
import type { RouteDef } from './route.ts';

// Right after the API key is known: the request takes its tokens from its environment's bucket
// of the route's category, and every answer from then on carries the bucket's headers (the
// reference's, draft-ietf-httpapi-ratelimit-headers); without the tokens the answer is 429 with
// Retry-After and nothing else runs.

export function rateLimit(route: RouteDef): MiddlewareObj<HttpEvent, HttpResponse> {
  const category = route.rateLimitCategory ?? DEFAULT_CATEGORY;
  const cost: RateLimitCost = route.rateLimitCost ?? 'single';
  return {
    before: async ({ event }) => {
      const { policy, verdict } = await checkRateLimit(event.caller!, category, cost);
      event.responseHeaders = {
        'RateLimit-Limit': String(policy.limit),
        'RateLimit-Remaining': String(verdict.remaining),
        'RateLimit-Reset': String(verdict.resetSeconds),
        'RateLimit-Policy':
          `${policy.limit};w=${WINDOW_SECONDS};burst=${policy.burst};comment="token bucket";` +
          `category="${category}";cost="${cost}";serviceLevel="${policy.serviceLevel}"`,
      };
      if (!verdict.allowed) throw new TooManyRequestsError(verdict.resetSeconds);
    },
  };
}
