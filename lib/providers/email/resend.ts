import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage, formatAddress } from './message.ts';

// Resend send email API. Resend's tags accept only a narrow character set, so customData is not
// mapped; trigger provider data (`tags`, ...) merges into the request as given.

const NAME = 'Resend';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('resend', c, 'https://api.resend.com')}/emails`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: {
        from: formatAddress(mail.from),
        to: mail.to,
        ...(mail.cc.length > 0 && { cc: mail.cc }),
        ...(mail.bcc.length > 0 && { bcc: mail.bcc }),
        ...(mail.replyTo && { reply_to: mail.replyTo }),
        subject: mail.subject,
        html: mail.html,
        ...(mail.text && { text: mail.text }),
        ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

export const resendProvider: DeliveryProvider = { send };
