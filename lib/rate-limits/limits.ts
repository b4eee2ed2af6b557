import { ENV, positiveNumber } from '../config.ts';
import type { EnvScope } from '../store/keys.ts';
import { ReadCache } from '../store/read-cache.ts';
import { getOrganizationRateLimits } from '../tenancy/environments.ts';
import { bucketPolicy, isServiceLevel, SERVICE_LEVELS, type BucketPolicy, type CategoryLimits, type RateLimitCategory, type ServiceLevel } from './policy.ts';

// Which limit applies to an environment's bucket: the organization's own (its item's
// `apiRateLimits`), else the stage's (lib/config.ts: a service level of the reference, each
// category replaceable by a number). A container keeps an organization's limits for
// ORGANIZATION_CACHE_MS, so the check adds no read to most requests; a changed limit applies
// within that time.

const DEFAULT_SERVICE_LEVEL: ServiceLevel = 'free';
export const ORGANIZATION_CACHE_MS = 30_000;

const STAGE_LIMIT_ENV: Record<RateLimitCategory, string> = {
  trigger: ENV.rateLimitTriggerPerSecond,
  configuration: ENV.rateLimitConfigurationPerSecond,
  global: ENV.rateLimitGlobalPerSecond,
};

export function stageServiceLevel(): ServiceLevel {
  const level = process.env[ENV.rateLimitServiceLevel];
  return level && isServiceLevel(level) ? level : DEFAULT_SERVICE_LEVEL;
}

/** The stage's limit of a category, requests per second. */
export function stageLimit(category: RateLimitCategory): number {
  return positiveNumber(STAGE_LIMIT_ENV[category], SERVICE_LEVELS[stageServiceLevel()][category]);
}

const organizationLimits = new ReadCache<Partial<CategoryLimits>>(ORGANIZATION_CACHE_MS, 1_000);

/** The bucket policy of the environment's category. */
export async function policyOf(scope: EnvScope, category: RateLimitCategory): Promise<BucketPolicy> {
  const own: unknown = (await organizationLimits.get(scope.organizationId, () => getOrganizationRateLimits(scope.organizationId)))?.[category];
  // An operator sets it by hand (docs/deploy.md): anything but a positive number leaves the stage's.
  return typeof own === 'number' && Number.isFinite(own) && own > 0
    ? bucketPolicy(category, own, 'custom')
    : bucketPolicy(category, stageLimit(category), stageServiceLevel());
}
