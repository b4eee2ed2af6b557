import { objectOr } from './deep-merge.ts';
import type { Delivery } from './provider.ts';

// Chat and push providers merge the trigger's overrides for the send (`overrides.<channel>` and
// `overrides[providerId]`) into the message they build (Slack blocks, FCM android options, APNs
// sound...). Keys that only steer the pipeline are not message fields and stay out.

const ROUTING_KEYS = new Set(['integrationIdentifier', 'webhookUrl', 'data']);

export function messageOverrides(delivery: Delivery): Record<string, unknown> {
  return Object.fromEntries(Object.entries(objectOr(delivery.overrides)).filter(([key]) => !ROUTING_KEYS.has(key)));
}

/** Push content: title = the rendered subject, body = the rendered body, data = `overrides.data`. */
export function pushContent(delivery: Delivery): { title: string; body: string; data: Record<string, unknown> } {
  return { title: delivery.subject ?? '', body: delivery.content, data: delivery.data ?? objectOr(delivery.overrides?.data) };
}
