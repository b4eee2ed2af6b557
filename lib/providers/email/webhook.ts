import { randomUUID } from 'node:crypto';
import { deepMerge, objectOr, stringValues } from '../deep-merge.ts';
import { callProvider } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { valueAt } from '../result.ts';
import { SIGNATURE_HEADER, signBody } from '../webhook-signature.ts';
import { emailMessage } from './message.ts';

// Email webhook: the email as JSON, POSTed to the integration's webhookUrl and signed with its
// secretKey (see webhook-signature.ts). The receiver's `id` is the message id when it answers
// one; otherwise the id we put in the body.

const NAME = 'Email webhook';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const id = randomUUID();
  const { _passthrough, ...known } = objectOr(delivery.providerData);
  const passthrough = objectOr(_passthrough);
  const payload = deepMerge(
    deepMerge(
      {
        id,
        to: mail.to,
        from: mail.from.email,
        ...(mail.from.name && { senderName: mail.from.name }),
        subject: mail.subject,
        html: mail.html,
        ...(mail.text && { text: mail.text }),
        cc: mail.cc,
        bcc: mail.bcc,
        ...(mail.replyTo && { replyTo: mail.replyTo }),
        headers: mail.headers,
        customData: mail.customData,
      },
      known,
    ),
    passthrough.body,
  );
  const body = JSON.stringify(payload);
  const answer = await callProvider(NAME, {
    url: String(c.webhookUrl ?? ''),
    headers: {
      'content-type': 'application/json',
      ...stringValues(passthrough.headers),
      [SIGNATURE_HEADER]: signBody(body, String(c.secretKey ?? '')),
    },
    query: stringValues(passthrough.query),
    body,
  });
  const answered = valueAt(answer.body, 'id');
  return { id: typeof answered === 'string' && answered !== '' ? answered : id, raw: { status: answer.status, body: answer.body } };
}

export const emailWebhookProvider: DeliveryProvider = { send };
