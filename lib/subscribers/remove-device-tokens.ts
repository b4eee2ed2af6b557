import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { getVersionedSubscriber, writeChannels } from './repository.ts';
import { changeTimestamp } from './view.ts';

// Device tokens a push provider reported as dead (uninstalled app, malformed token) leave the
// subscriber's channel credentials, so later sends stop trying them. The write is conditioned on
// the version read, so a token registered meanwhile is never lost.

export interface DeadToken {
  providerId: string;
  integrationId: string;
  token: string;
}

/** Removes the tokens still present; returns those it removed. */
export function removeDeviceTokens(scope: EnvScope, subscriberId: string, dead: readonly DeadToken[]): Promise<DeadToken[]> {
  if (dead.length === 0) return Promise.resolve([]);
  return retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(scope, subscriberId);
    if (!current) return [];
    const removed: DeadToken[] = [];
    const channels = (current.subscriber.channels ?? []).map((channel) => {
      const tokens = channel.credentials.deviceTokens ?? [];
      const gone = dead.filter(
        (d) => d.providerId === channel.providerId && d.integrationId === channel._integrationId && tokens.includes(d.token),
      );
      if (gone.length === 0) return channel;
      removed.push(...gone);
      const goneTokens = new Set(gone.map((d) => d.token));
      return { ...channel, credentials: { ...channel.credentials, deviceTokens: tokens.filter((t) => !goneTokens.has(t)) } };
    });
    if (removed.length === 0) return [];
    await writeChannels(scope, subscriberId, channels, current.version, changeTimestamp(current.subscriber.updatedAt));
    return removed;
  });
}
