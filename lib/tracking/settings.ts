import type { EnvScope } from '../scope.ts';
import { ReadCache } from '../store/read-cache.ts';
import { getEnvironment } from '../accounts/environments.ts';
import { DEFAULT_TRACKING, trackingOf, type TrackingSettings } from '../accounts/tracking-settings.ts';

// Every send reads the settings; a container keeps them a few seconds (a change applies to sends
// that start up to CACHE_MS later).
const CACHE_MS = 5_000;
const cache = new ReadCache<TrackingSettings>(CACHE_MS, 500);

export async function trackingSettingsOf(scope: EnvScope): Promise<TrackingSettings> {
  const found = await cache.get(`${scope.organizationId}/${scope.environmentId}`, async () => {
    const environment = await getEnvironment(scope.organizationId, scope.environmentId);
    return environment && trackingOf(environment.tracking);
  });
  return found ?? DEFAULT_TRACKING;
}
