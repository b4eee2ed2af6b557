import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import { SEND_BUDGET_MS } from '../retry.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage, formatAddress } from './message.ts';

// Braze messages/send (Bearer REST API key) to the account's REST endpoint (`baseUrl`, per Braze
// instance), for the app `applicationId`. Braze sends to its users, not to addresses: each
// recipient's address is looked up first (users/export/ids), as the reference does; an address
// no Braze user has fails the send. Braze's email takes one bcc (an address set up in Braze) and
// no cc: a message asking for more fails rather than going out without them. customData becomes
// the email's `extras` (in Braze's events). The dispatch id is the message id.

const NAME = 'Braze';
function base(c: Record<string, unknown>): string {
  const url = baseUrlOf('braze', c, '');
  // Braze has no one public endpoint: each account names its instance's.
  if (url === '') throw new ProviderError(`${NAME} was not called: the integration has no REST endpoint (baseUrl)`);
  return url;
}
const auth = (c: Record<string, unknown>) => ({ authorization: `Bearer ${String(c.apiKey ?? '')}` });

function userLookup(c: Record<string, unknown>, email: string) {
  return {
    method: 'POST' as const,
    url: `${base(c)}/users/export/ids`,
    headers: auth(c),
    json: { email_address: email, fields_to_export: ['external_id'] },
  };
}

async function externalIdsOf(c: Record<string, unknown>, email: string, until: number): Promise<string[]> {
  const answer = await callProvider(NAME, userLookup(c, email), { until });
  const users = valueAt(answer.body, 'users');
  const ids = (Array.isArray(users) ? users : [])
    .map((user) => valueAt(user, 'external_id'))
    .filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length === 0)
    throw new ProviderError(`${NAME} has no user with the email address ${email}`, { status: answer.status, body: answer.body });
  return ids;
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  if (mail.cc.length > 0 || mail.bcc.length > 1)
    throw new ProviderError(`${NAME} cannot send cc copies or more than one bcc`, { cc: mail.cc, bcc: mail.bcc });
  // The lookups and the send share one send's time budget (retry.ts), as one call would.
  const until = Date.now() + SEND_BUDGET_MS;
  const externalIds = (await Promise.all(mail.to.map((email) => externalIdsOf(c, email, until)))).flat();
  const extras = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${base(c)}/messages/send`,
      headers: auth(c),
      json: {
        external_user_ids: [...new Set(externalIds)],
        messages: {
          email: {
            app_id: String(c.applicationId ?? ''),
            from: formatAddress(mail.from),
            subject: mail.subject,
            body: mail.html,
            ...(mail.text && { plaintext_body: mail.text }),
            ...(mail.replyTo && { reply_to: mail.replyTo }),
            ...(mail.bcc[0] && { bcc: mail.bcc[0] }),
            ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
            ...(Object.keys(extras).length > 0 && { extras }),
          },
        },
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request, { until });
  return delivered(NAME, valueAt(answer.body, 'dispatch_id'), answer.body);
}

/** Looks up the sender's address among Braze's users (what every send does first): nothing is sent. */
export async function checkBrazeConnection(integration: ConnectionTarget): Promise<void> {
  const c = integration.credentials;
  await checkCall(NAME, userLookup(c, String(c.from ?? '')));
}

export const brazeProvider: DeliveryProvider = { send };
