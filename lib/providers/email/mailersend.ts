import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';
import { addressObjectFields, emailMessage } from './message.ts';

// MailerSend email API (Bearer token). It answers 202 with the message id in the X-Message-Id
// header. Headers go as MailerSend's `headers` list. MailerSend has no free-form metadata on a
// send: as in the reference, customData's `templateId` and `personalization` become the
// request's template_id and personalization; trigger provider data (`tags`, ...) merges in.

const NAME = 'MailerSend';
const base = (c: Record<string, unknown>) => baseUrlOf('mailersend', c, 'https://api.mailersend.com');
const auth = (c: Record<string, unknown>) => ({ authorization: `Bearer ${String(c.apiKey ?? '')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const headers = Object.entries(mail.headers).map(([name, value]) => ({ name, value }));
  const { templateId, personalization } = mail.customData;
  const request = withProviderData(
    {
      url: `${base(c)}/v1/email`,
      headers: auth(c),
      json: {
        ...addressObjectFields(mail),
        ...(headers.length > 0 && { headers }),
        ...(typeof templateId === 'string' && templateId !== '' && { template_id: templateId }),
        ...(Array.isArray(personalization) && { personalization }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const id = answer.headers.get('x-message-id');
  return delivered(NAME, id, { status: answer.status, messageId: id });
}

/** Reads the token's daily API quota: any token may, it sends nothing and costs no quota. */
export async function checkMailersendConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/v1/api-quota`, headers: auth(integration.credentials) });
}

export const mailersendProvider: DeliveryProvider = { send };
