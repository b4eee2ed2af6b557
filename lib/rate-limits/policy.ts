// The reference's API rate limits: each API-key request draws tokens from its environment's
// bucket of one category; a route's category and cost are in the route table (infra/routes*.ts).
// Limits are requests per second; a bucket holds 5 seconds of them plus 10 % (its burst) and
// refills continuously at the limit.

export const RATE_LIMIT_CATEGORIES = ['trigger', 'configuration', 'global'] as const;
export type RateLimitCategory = (typeof RATE_LIMIT_CATEGORIES)[number];

/** Tokens a request takes: `bulk` for the routes that act on many records at once. */
export const RATE_LIMIT_COSTS = { single: 1, bulk: 100 } as const;
export type RateLimitCost = keyof typeof RATE_LIMIT_COSTS;

/** The reference's default category of a route that names none. */
export const DEFAULT_CATEGORY: RateLimitCategory = 'global';

export const WINDOW_SECONDS = 5;
const BURST_ALLOWANCE = 0.1;

/** Requests per second of each category. */
export type CategoryLimits = Record<RateLimitCategory, number>;

/** The reference's service levels (its plans), requests per second by category. */
export const SERVICE_LEVELS = {
  free: { trigger: 60, configuration: 20, global: 30 },
  pro: { trigger: 240, configuration: 80, global: 120 },
  business: { trigger: 600, configuration: 200, global: 300 },
  enterprise: { trigger: 6000, configuration: 2000, global: 3000 },
  unlimited: { trigger: 6000, configuration: 2000, global: 3000 },
} as const satisfies Record<string, CategoryLimits>;
export type ServiceLevel = keyof typeof SERVICE_LEVELS;
export const isServiceLevel = (value: string): value is ServiceLevel => Object.hasOwn(SERVICE_LEVELS, value);

/** One bucket's figures, as the headers report them. */
export interface BucketPolicy {
  category: RateLimitCategory;
  /** Requests per second. */
  perSecond: number;
  /** Tokens per window (`RateLimit-Limit`). */
  limit: number;
  /** What the bucket holds when full. */
  burst: number;
  /** Microseconds to refill one token. */
  tokenMicros: number;
  /** `custom` when the organization's own limit applies, else the stage's service level. */
  serviceLevel: ServiceLevel | 'custom';
}

export function bucketPolicy(category: RateLimitCategory, perSecond: number, serviceLevel: BucketPolicy['serviceLevel']): BucketPolicy {
  return {
    category,
    perSecond,
    limit: Math.round(perSecond * WINDOW_SECONDS),
    burst: Math.floor(perSecond * WINDOW_SECONDS * (1 + BURST_ALLOWANCE)),
    tokenMicros: Math.max(1, Math.round(1_000_000 / perSecond)),
    serviceLevel,
  };
}
