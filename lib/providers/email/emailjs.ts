import type { ConnectionTarget, Delivery, DeliveryProvider } from '../provider.ts';
import { sendOverSmtp, verifySmtp } from './smtp.ts';

// `emailjs` is, in the reference, the emailjs SMTP client library (not the EmailJS.com service):
// its handler sends over SMTP with host, port, secure (SSL), user and password. The same
// delivery as custom SMTP, with those settings only.

function settings(c: Record<string, unknown>): Record<string, unknown> {
  return { host: c.host, port: c.port, secure: c.secure, user: c.user, password: c.password };
}

/** Connects and signs in (SMTP verify): nothing is sent. */
export const checkEmailjsConnection = (integration: ConnectionTarget): Promise<void> => verifySmtp(settings(integration.credentials));

export const emailjsProvider: DeliveryProvider = {
  send: (delivery: Delivery) => sendOverSmtp(delivery, settings(delivery.integration.credentials)),
};
