import { objectOr } from '../deep-merge.ts';
import { checkCall } from '../http.ts';
import { sendgridApiBase } from './sendgrid.ts';

// Pointing SendGrid's Event Webhook at our receipts (auto-configure): a signed event webhook is
// created with the account's API key (it needs the "Mail Settings" permission), every event the
// receipts read switched on, then its signature switched on; SendGrid answers with the public key
// its events are signed with, which the receipts check (lib/receipts/vendors/sendgrid.ts).

const NAME = 'SendGrid';

/** The events SendGrid posts: the ones lib/receipts/vendors/sendgrid.ts maps to a status. */
const EVENTS = {
  processed: true,
  delivered: true,
  open: true,
  click: true,
  bounce: true,
  dropped: true,
  deferred: true,
  spam_report: true,
  unsubscribe: true,
  group_unsubscribe: true,
  group_resubscribe: false,
};

/** Creates the signed event webhook posting to `url`; the key SendGrid signs its events with. */
export async function configureSendgridEventWebhook(credentials: Record<string, unknown>, url: string): Promise<{ signingKey: string }> {
  const base = `${sendgridApiBase(credentials)}/v3/user/webhooks/event/settings`;
  const headers = { authorization: `Bearer ${String(credentials.apiKey ?? '')}` };
  const created = objectOr(
    (
      await checkCall(NAME, {
        method: 'POST',
        url: base,
        headers,
        json: { enabled: true, url, friendly_name: 'Delivery receipts', ...EVENTS },
      })
    ).body,
  );
  if (typeof created.id !== 'string' || !created.id) throw new Error('SendGrid did not name the event webhook it created');
  const signed = objectOr(
    (await checkCall(NAME, { method: 'PATCH', url: `${base}/signed/${encodeURIComponent(created.id)}`, headers, json: { enabled: true } }))
      .body,
  );
  if (typeof signed.public_key !== 'string' || !signed.public_key)
    throw new Error('SendGrid did not give the event webhook’s verification key');
  return { signingKey: signed.public_key };
}
