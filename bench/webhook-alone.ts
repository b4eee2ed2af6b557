import { newId } from '#lib/ids.ts';
import { guardedPost } from '#lib/net/guarded-request.ts';
import type { WebhookDelivery } from '#lib/webhooks/delivery-message.ts';
import { deliverWebhook } from '#lib/webhooks/deliver.ts';
import { getEndpointForSending } from '#lib/webhooks/repository.ts';
import { webhookTimeoutMs } from '#lib/webhooks/schedule.ts';
import { signedHeaders } from '#lib/webhooks/sign.ts';
import { medianRounds, type AloneRate } from './alone.ts';
import type { BenchEnv } from './seed.ts';

// A webhook event's delivery with nothing around it: no stream, no emission, no queue. The
// webhooks consumer's work for one queue message called directly, each time a new event (so each
// reads its endpoint and attempt, signs, POSTs to the bench's receiver and records the attempt),
// and the signed POST alone. A one-recipient in-app delivery makes two such events (sent and
// delivered). Set beside the pipeline's pair "everything on" − "endpoint disabled" of the same run.

export interface WebhookAlone {
  events: number;
  /** Per event: the consumer's work called directly, and the signed POST alone (median of three rounds each). */
  delivery: AloneRate;
  post: AloneRate;
}

/** `count` events per variant and round, each the body of a real event the receiver got. */
export async function measureWebhookAlone(env: BenchEnv, endpointId: string, payload: string, count: number): Promise<WebhookAlone> {
  const found = await getEndpointForSending(env.scope, endpointId);
  if (!found) throw new Error('webhook alone: the endpoint is gone');
  const { url } = found.endpoint;
  const rates = await medianRounds(
    {
      delivery: () => {
        const message: WebhookDelivery = {
          kind: 'webhook',
          organizationId: env.scope.organizationId,
          environmentId: env.scope.environmentId,
          endpointId,
          eventId: `evt_${newId()}`,
          eventType: 'message.sent',
          payload,
          attempt: 1,
        };
        return deliverWebhook(JSON.stringify(message));
      },
      post: () => {
        const eventId = `evt_${newId()}`;
        return guardedPost(url, signedHeaders(found.secret, eventId, payload, new Date()), payload, webhookTimeoutMs());
      },
    },
    count,
  );
  return { events: count, ...rates };
}
