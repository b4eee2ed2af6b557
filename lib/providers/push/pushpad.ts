import { baseUrlOf } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';

// Pushpad: POST /api/v1/projects/<project id>/notifications with the auth token; the device
// tokens are Pushpad uids. Data travels as `custom_data`, a string the service worker reads.

export const pushpad: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const { title, body, data } = pushContent(delivery);
    const notification = deepMerge(
      { ...(title && { title }), body, ...(Object.keys(data).length > 0 && { custom_data: JSON.stringify(data) }) },
      messageOverrides(delivery),
    );
    const projectId = encodeURIComponent(String(c.applicationId ?? ''));
    const url = `${baseUrlOf('pushpad', c, 'https://pushpad.xyz')}/api/v1/projects/${projectId}/notifications`;
    const answer = await callProvider(
      'Pushpad',
      withProviderData(
        { url, headers: { authorization: `Token token="${String(c.apiKey ?? '')}"` }, json: { notification, uids: [delivery.to] } },
        delivery.providerData,
      ),
    );
    const raw = { status: answer.status, body: answer.body };
    const id = objectOr(answer.body).id;
    if (id === undefined || id === null) throw new ProviderError('Pushpad gave no notification id', raw);
    return { id: String(id), raw };
  },
};
