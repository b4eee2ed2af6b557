import { baseUrlOf } from '../base-url.ts';
import { deepMerge } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';

// Pusher Beams publish API: POST /publish_api/v1/instances/<instance>/publishes/users on the
// instance's own host, with the secret key as Bearer token; the subscriber's device tokens are
// Beams user ids. One publish carries the APNs, FCM and web forms of the notification; the
// reference's flat overrides (sound, badge, icon, ttl, ...) go where each platform reads them,
// anything else (an `apns`/`fcm`/`web` block) merges into the publish. Beams answers {publishId}.

const NAME = 'Pusher Beams';

/** An instance id is part of the API's host name: one DNS label. */
export const isInstanceId = (value: unknown): boolean => typeof value === 'string' && /^[A-Za-z0-9-]{1,63}$/.test(value.trim());

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const instance = String(c.instanceId ?? '').trim();
  const { title, body, data } = pushContent(delivery);
  const { sound, badge, categoryId, channelId, clickAction, color, icon, tag, ttl, ...rest } = messageOverrides(delivery);
  const hasData = Object.keys(data).length > 0;
  const publish = deepMerge(
    {
      users: [delivery.to],
      apns: { aps: { alert: { title, body }, badge, category: categoryId, sound }, ...(hasData && { data }) },
      fcm: {
        notification: { title, body, android_channel_id: channelId, click_action: clickAction, color, icon, sound, tag },
        ...(hasData && { data }),
        time_to_live: ttl,
      },
      web: { notification: { title, body, icon }, ...(hasData && { data }), time_to_live: ttl },
    },
    rest,
  );
  const origin = baseUrlOf('pusher-beams', c, `https://${instance}.pushnotifications.pusher.com`);
  const url = `${origin}/publish_api/v1/instances/${encodeURIComponent(instance)}/publishes/users`;
  const answer = await callProvider(
    NAME,
    withProviderData({ url, headers: { authorization: `Bearer ${String(c.secretKey ?? '')}` }, json: publish }, delivery.providerData),
  );
  return delivered(NAME, (answer.body as { publishId?: unknown } | undefined)?.publishId, { status: answer.status, body: answer.body });
}

export const pusherBeams: DeliveryProvider = { send };
