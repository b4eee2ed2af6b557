import type { Caller } from '../auth/caller.ts';
import { findChannelIntegration } from './channel-integration.ts';
import { applyCredentials, type TokenMode } from './channels.ts';
import { subscriberNotFound } from './get.ts';
import type { Subscriber } from './model.ts';
import { getVersionedSubscriber, writeChannels } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { UpdateCredentialsInput } from './schemas.ts';
import { changeTimestamp, toSubscriberView } from './view.ts';

/** PUT (`replace`) or PATCH (`append`) of a subscriber's credentials for one chat/push provider. */
export async function updateSubscriberCredentials(
  caller: Caller,
  subscriberId: string,
  input: UpdateCredentialsInput,
  mode: TokenMode,
): Promise<Subscriber> {
  // An unknown subscriber is a 404 before a missing integration is a 400.
  if (!(await getVersionedSubscriber(caller, subscriberId))) throw subscriberNotFound(subscriberId);
  const integration = await findChannelIntegration(caller, input.providerId, input.integrationIdentifier);
  const update = { providerId: input.providerId, integrationId: integration._id, credentials: input.credentials };

  return retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(caller, subscriberId);
    if (!current) throw subscriberNotFound(subscriberId);
    const before = current.subscriber.channels ?? [];
    const channels = applyCredentials(before, update, mode);
    if (JSON.stringify(channels) === JSON.stringify(before)) return toSubscriberView(current.subscriber);
    const now = changeTimestamp(current.subscriber.updatedAt);
    return toSubscriberView(await writeChannels(caller, subscriberId, channels, current.version, now));
  });
}
