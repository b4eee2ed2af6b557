import { ENV, optional, positiveNumber } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { ReadCache } from '../store/read-cache.ts';
import { getOrganizationRateLimits } from './organization-limits.ts';
import {
  bucketPolicy,
  isServiceLevel,
  RATE_LIMIT_CATEGORIES,
  SERVICE_LEVELS,
  type BucketPolicy,
  type RateLimitCategory,
  type ServiceLevel,
} from './policy.ts';

// Which limit applies to an environment's bucket: the organization's own (its item's
// `apiRateLimits`), else the stage's (lib/config.ts: a service level of the reference, each
// category replaceable by a number). A container keeps an organization's policies for
// ORGANIZATION_CACHE_MS, so the check adds no read to most requests; a changed limit applies
// within that time. Both are built once (the stage's per container, an organization's per read),
// not on every request.

const DEFAULT_SERVICE_LEVEL: ServiceLevel = 'free';
const ORGANIZATION_CACHE_MS = 30_000;

const STAGE_LIMIT_ENV: Record<RateLimitCategory, string> = {
  trigger: ENV.rateLimitTriggerPerSecond,
  configuration: ENV.rateLimitConfigurationPerSecond,
  global: ENV.rateLimitGlobalPerSecond,
};

type Policies = Partial<Record<RateLimitCategory, BucketPolicy>>;

/** The stage's policies, read from its environment on first use (it does not change in a container). */
let stagePolicies: Record<RateLimitCategory, BucketPolicy> | undefined;
function stagePolicy(category: RateLimitCategory): BucketPolicy {
  if (!stagePolicies) {
    const configured = optional(ENV.rateLimitServiceLevel);
    const level = configured && isServiceLevel(configured) ? configured : DEFAULT_SERVICE_LEVEL;
    const policy = (c: RateLimitCategory) => bucketPolicy(c, positiveNumber(STAGE_LIMIT_ENV[c], SERVICE_LEVELS[level][c]), level);
    stagePolicies = Object.fromEntries(RATE_LIMIT_CATEGORIES.map((c) => [c, policy(c)])) as Record<RateLimitCategory, BucketPolicy>;
  }
  return stagePolicies[category];
}

/** The organization's own policies, or undefined when there is no such organization. */
async function organizationPolicies(organizationId: string): Promise<Policies | undefined> {
  const limits = await getOrganizationRateLimits(organizationId);
  if (!limits) return undefined;
  const policies: Policies = {};
  for (const category of RATE_LIMIT_CATEGORIES) {
    const own: unknown = limits[category];
    // An operator sets it by hand (docs/deploy.md): anything but a positive number leaves the stage's.
    if (typeof own === 'number' && Number.isFinite(own) && own > 0) policies[category] = bucketPolicy(category, own, 'custom');
  }
  return policies;
}

const organizations = new ReadCache<Policies>(ORGANIZATION_CACHE_MS, 1_000);

/** The bucket policy of the environment's category. */
export async function policyOf(scope: EnvScope, category: RateLimitCategory): Promise<BucketPolicy> {
  const own = (await organizations.get(scope.organizationId, () => organizationPolicies(scope.organizationId)))?.[category];
  return own ?? stagePolicy(category);
}
