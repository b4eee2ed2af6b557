import { randomUUID } from 'node:crypto';
import { withScheme } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { signedJson } from '../webhook-signature.ts';

// Push webhook: POST {target: [token], title, content, data} as JSON to the integration's
// webhookUrl, signed with its secretKey (webhook-signature.ts), so the receiver delivers the push
// itself. The receiver may name the message with `id` in its JSON answer.

export const pushWebhook: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const url = typeof c.webhookUrl === 'string' ? withScheme(c.webhookUrl.trim()) : '';
    const secret = typeof c.secretKey === 'string' ? c.secretKey : '';
    if (!url || !secret) throw new ProviderError('The push webhook integration needs webhookUrl and secretKey');
    const { title, body, data } = pushContent(delivery);
    const message = deepMerge({ target: [delivery.to], title, content: body, data }, messageOverrides(delivery));
    const answer = await callProvider('Push webhook', signedJson(withProviderData({ url, json: message }, delivery.providerData), secret));
    const id = objectOr(answer.body).id;
    return { id: typeof id === 'string' && id ? id : randomUUID(), raw: { status: answer.status, body: answer.body } };
  },
};
