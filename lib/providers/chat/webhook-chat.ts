import { randomUUID } from 'node:crypto';
import { deepMerge } from '../deep-merge.ts';
import { callProvider, withProviderData, type ProviderAnswer, type ProviderRequest } from '../http.ts';
import { messageOverrides } from '../message-overrides.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';

// Most chat providers are one POST of a JSON message to the webhook URL the subscriber
// registered (`delivery.to`). A provider module says how its message looks and where its
// answer names the message; overrides are merged into the message, provider data into the request.

export interface WebhookChatSpec {
  /** The catalogue's provider id (its credential fields). */
  id: string;
  name: string;
  message(delivery: Delivery): Record<string, unknown>;
  /** The request to send; default: POST the message as JSON to the webhook URL. */
  request?(delivery: Delivery, message: Record<string, unknown>): ProviderRequest;
  /** Last touch on the final request (signing the exact bytes sent). */
  finish?(delivery: Delivery, request: ProviderRequest): ProviderRequest;
  /** The provider's id of the message in its answer, if it gives one. */
  idOf?(answer: ProviderAnswer): unknown;
}

export function webhookChat(spec: WebhookChatSpec): DeliveryProvider {
  return {
    async send(delivery: Delivery): Promise<DeliveryResult> {
      const message = deepMerge(spec.message(delivery), messageOverrides(delivery));
      const request = withProviderData(spec.request?.(delivery, message) ?? { url: delivery.to, json: message }, delivery.providerData);
      const answer = await callProvider(spec.name, spec.finish?.(delivery, request) ?? request);
      const id = spec.idOf?.(answer);
      return { id: typeof id === 'string' && id ? id : randomUUID(), raw: { status: answer.status, body: answer.body } };
    },
  };
}
