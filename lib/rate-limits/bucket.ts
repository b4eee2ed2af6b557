import { RATE_LIMIT_COSTS, type BucketPolicy, type RateLimitCost } from './policy.ts';

// A token bucket kept as one number, its "theoretical arrival time" (GCRA): the instant the
// bucket is full again. A request of cost c moves it c tokens' refill time later, from now when
// it lies in the past; the request fits when the bucket would still be full within `burst`
// tokens' refill time. Taking tokens is then an addition or a set, which DynamoDB can do
// atomically under a condition (lib/rate-limits/take-tokens.ts), where a count of tokens would need the
// refill (a min and a product) computed from a read first. All times are microseconds.

/** When the bucket is full again; undefined (no item) or past: full now. */
export type FullAt = number | undefined;

export interface Verdict {
  allowed: boolean;
  /** Whole tokens left (`RateLimit-Remaining`). */
  remaining: number;
  /**
   * `RateLimit-Reset`: on success, seconds until this request's tokens are back (or, when fewer than its cost
   * are left, until its cost is); refused, seconds until it would fit.
   */
  resetSeconds: number;
  /** When the bucket is full again after the request (the stored state); refused: unchanged. */
  fullAt: FullAt;
}

/**
 * Tokens a request takes; one costing more than the bucket holds takes a full bucket, so a bulk route is
 * never shut for good under a small limit.
 */
export const tokensOf = (policy: BucketPolicy, cost: RateLimitCost): number => Math.min(RATE_LIMIT_COSTS[cost], policy.burst);

/** An empty bucket's refill time. */
export const capacityMicros = (policy: BucketPolicy): number => policy.burst * policy.tokenMicros;
const toSeconds = (micros: number) => Math.max(0, Math.ceil(micros / 1_000_000));

/**
 * Whether the bucket is full at `now`: no state, a `fullAt` past, or one further ahead than an
 * empty bucket's refill time, which only a clock that went back can leave (a container's skew, a
 * test's faked clock): such a bucket starts over instead of staying shut until the clock catches up.
 */
export const isFull = (fullAt: FullAt, now: number, policy: BucketPolicy): boolean =>
  fullAt === undefined || fullAt <= now || fullAt - now > capacityMicros(policy);

/** The verdict on a request of `cost` at `now` against a bucket full again at `fullAt`. */
export function decide(fullAt: FullAt, now: number, policy: BucketPolicy, cost: RateLimitCost): Verdict {
  const tokens = tokensOf(policy, cost);
  const after = (isFull(fullAt, now, policy) ? now : fullAt!) + tokens * policy.tokenMicros;
  if (after - now > capacityMicros(policy)) {
    return { allowed: false, remaining: 0, resetSeconds: toSeconds(after - now - capacityMicros(policy)), fullAt };
  }
  return taken(after, now, policy, cost);
}

/** The verdict on a request that was let in and left the bucket full again at `fullAt`. */
export function taken(fullAt: number, now: number, policy: BucketPolicy, cost: RateLimitCost): Verdict {
  const tokens = tokensOf(policy, cost);
  const remaining = Math.max(0, Math.floor((capacityMicros(policy) - (fullAt - now)) / policy.tokenMicros));
  const resetTokens = remaining < tokens ? tokens - remaining : tokens;
  return { allowed: true, remaining, resetSeconds: toSeconds(resetTokens * policy.tokenMicros), fullAt };
}
