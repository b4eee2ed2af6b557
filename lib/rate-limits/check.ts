import type { EnvScope } from '../scope.ts';
import type { Verdict } from './bucket.ts';
import { policyOf } from './limits.ts';
import type { BucketPolicy, RateLimitCategory, RateLimitCost } from './policy.ts';
import { takeTokens } from './take-tokens.ts';

export interface RateLimitCheck {
  policy: BucketPolicy;
  verdict: Verdict;
}

/** Takes a request's tokens from its environment's bucket of `category`; refused when they are not there. */
export async function checkRateLimit(scope: EnvScope, category: RateLimitCategory, cost: RateLimitCost): Promise<RateLimitCheck> {
  const policy = await policyOf(scope, category);
  return { policy, verdict: await takeTokens(scope, policy, cost) };
}
