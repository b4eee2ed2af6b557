import { randomUUID } from 'node:crypto';
import { baseUrlOf } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';

// OneSignal: POST /notifications to the app (applicationId) with the REST API key; the
// subscriber's device tokens are OneSignal subscription ids. OneSignal answers 200 even when it
// reached nobody; then the id is empty and `errors` says why.

export const oneSignal: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const apiKey = String(c.apiKey ?? '');
    const { title, body, data } = pushContent(delivery);
    const notification = deepMerge(
      {
        app_id: String(c.applicationId ?? ''),
        target_channel: 'push',
        include_subscription_ids: [delivery.to],
        ...(title && { headings: { en: title } }),
        contents: { en: body },
        ...(Object.keys(data).length > 0 && { data }),
      },
      messageOverrides(delivery),
    );
    const url = `${baseUrlOf('one-signal', c, 'https://api.onesignal.com')}/notifications`;
    // Current API keys (os_v2_...) use the `Key` scheme; older REST API keys `Basic`.
    const authorization = `${apiKey.startsWith('os_v2_') ? 'Key' : 'Basic'} ${apiKey}`;
    const answer = await callProvider(
      'OneSignal',
      withProviderData({ url, query: { c: 'push' }, headers: { authorization }, json: notification }, delivery.providerData),
    );
    const raw = { status: answer.status, body: answer.body };
    const { id, errors } = objectOr(answer.body);
    if (typeof id !== 'string' || !id) {
      const said = Array.isArray(errors) && typeof errors[0] === 'string' ? `: ${errors[0]}` : '';
      throw new ProviderError(`OneSignal did not send the notification${said}`, raw);
    }
    return { id: id || randomUUID(), raw };
  },
};
