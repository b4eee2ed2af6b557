import { providerBaseUrl, withScheme } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';

// App IO (the Italian public services app), as the reference sends to it: the subscriber's
// device token is the citizen's fiscal code. First POST /profiles {fiscal_code}: the citizen must
// accept messages from the service (`sender_allowed`); then POST /messages {fiscal_code,
// content: {subject, markdown}} (IO wants a 10-120 character subject and 80+ characters of
// Markdown, and says so in a 400). Both with the service's API key as Ocp-Apim-Subscription-Key:
// the integration's apiKey, else, as in the reference, the trigger's provider data `apiKey`.
// The base URL is the integration's AppIOBaseUrl. IO answers 201 with the message id.

const NAME = 'App IO';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const { apiKey: dataKey, ...providerData } = objectOr(delivery.providerData);
  const apiKey = [c.apiKey, dataKey].find((k): k is string => typeof k === 'string' && k.trim() !== '');
  if (!apiKey) throw new ProviderError('App IO needs the service API key: the integration’s apiKey or the trigger’s provider data apiKey');
  const configured = typeof c.AppIOBaseUrl === 'string' ? c.AppIOBaseUrl.trim() : '';
  const base = withScheme(configured || providerBaseUrl('appio', 'https://api.io.italia.it/api/v1')).replace(/\/+$/, '');
  const headers = { 'ocp-apim-subscription-key': apiKey.trim() };
  const fiscalCode = delivery.to;

  const profile = await callProvider(NAME, { url: `${base}/profiles`, headers, json: { fiscal_code: fiscalCode } });
  if (objectOr(profile.body).sender_allowed !== true) {
    throw new ProviderError('App IO: the recipient does not accept messages from this service (sender_allowed is not true)', {
      status: profile.status,
      body: profile.body,
    });
  }

  const { title, body } = pushContent(delivery);
  const message = deepMerge({ fiscal_code: fiscalCode, content: { subject: title, markdown: body } }, messageOverrides(delivery));
  const answer = await callProvider(NAME, withProviderData({ url: `${base}/messages`, headers, json: message }, providerData));
  return delivered(NAME, objectOr(answer.body).id, { status: answer.status, body: answer.body });
}

export const appio: DeliveryProvider = { send };
