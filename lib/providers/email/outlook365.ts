import { providerBaseUrl } from '../base-url.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider } from '../provider.ts';
import { sendOverSmtp, verifySmtp } from './smtp.ts';

// Microsoft Outlook 365 over SMTP AUTH (smtp.office365.com:587, STARTTLS required), signing in as
// the integration's `from` address with its `password`, as the reference does. The server can be
// replaced as `smtp://host:port` in PROVIDER_BASE_URL_OUTLOOK365 (a relay, a test server); the
// integration's tlsOptions apply as for custom SMTP.

const PUBLIC_SERVER = 'smtp://smtp.office365.com:587';

function settings(c: Record<string, unknown>): Record<string, unknown> {
  const server = new URL(providerBaseUrl('outlook365', PUBLIC_SERVER));
  return {
    host: server.hostname,
    port: server.port || '587',
    requireTls: true,
    user: c.from,
    password: c.password,
    ...(c.tlsOptions !== undefined && { tlsOptions: c.tlsOptions }),
  };
}

/** Signs in to the server (SMTP verify): nothing is sent. */
export const checkOutlook365Connection = (integration: ConnectionTarget): Promise<void> => verifySmtp(settings(integration.credentials));

export const outlook365Provider: DeliveryProvider = {
  send: (delivery: Delivery) => sendOverSmtp(delivery, settings(delivery.integration.credentials)),
};
