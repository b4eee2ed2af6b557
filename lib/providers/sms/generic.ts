import { withScheme } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { SEND_BUDGET_MS } from '../retry.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Generic SMS: any HTTP SMS API, configured per integration (facts of the reference's provider):
// POST JSON {to, content, from, sender, customData} to baseUrl with the API key (and secret) in
// the named headers; the message id and date are read at idPath / datePath of the answer. With
// authenticateByToken, a POST to `domain` (the auth URL) with those headers first returns a token
// at data.<authenticationTokenKey>, sent on in a header of that name. Both calls share one budget.

const NAME = 'Generic SMS';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function keyHeaders(c: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { [String(c.apiKeyRequestHeader)]: String(c.apiKey ?? '') };
  const secretHeader = text(c.secretKeyRequestHeader);
  if (secretHeader && text(c.secretKey)) headers[secretHeader] = String(c.secretKey);
  return headers;
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const until = Date.now() + SEND_BUDGET_MS;
  let headers = keyHeaders(c);
  if (c.authenticateByToken === true) {
    const tokenKey = String(c.authenticationTokenKey ?? '');
    const auth = await callProvider(NAME, { url: withScheme(String(c.domain ?? '')), headers }, { until });
    const token = valueAt(auth.body, `data.${tokenKey}`);
    if (typeof token !== 'string' || token === '') {
      throw new ProviderError(`${NAME}: the auth URL answered no token at data.${tokenKey}`, { status: auth.status, body: auth.body });
    }
    headers = { [tokenKey]: token };
  }
  const request = withProviderData(
    {
      url: withScheme(String(c.baseUrl ?? '')),
      headers,
      json: {
        to: sms.to,
        content: sms.content,
        ...(sms.from && { from: sms.from, sender: sms.from }),
        ...(Object.keys(sms.customData).length > 0 && { customData: sms.customData }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request, { until });
  const date = valueAt(answer.body, text(c.datePath) ?? 'date');
  const result = delivered(NAME, valueAt(answer.body, text(c.idPath) ?? 'id'), answer.body);
  return { ...result, raw: { ...(typeof date === 'string' && { date }), body: answer.body } };
}

export const genericSmsProvider: DeliveryProvider = { send };
