import { UnauthorizedError } from '../../errors.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import { sameBytes } from './hmac.ts';

// Vendors that do not sign their receipts (Postmark, Brevo, Infobip) send the credentials written into the
// webhook URL as HTTP Basic auth. With the integration's inboundWebhookSigningKey set, the
// password must be that key; without it they are accepted as the reference accepts them.

export function assertBasicAuth(integration: StoredIntegration, headers: Record<string, string | undefined>, vendor: string): void {
  const key = integration.configurations?.inboundWebhookSigningKey;
  if (!key) return;
  const [scheme, encoded] = (headers.authorization ?? '').split(' ');
  const password =
    scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8').split(':').slice(1).join(':') : '';
  if (!sameBytes(Buffer.from(password), Buffer.from(key))) throw new UnauthorizedError(`Missing or wrong ${vendor} webhook credentials`);
}
