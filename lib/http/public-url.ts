import { optional, ENV } from '../config.ts';

// The API's own origin as the outside world reaches it, for URLs the service hands to others (an
// OAuth callback, a provider's event webhook): the stage's PUBLIC_URL, else the host the request
// came to (API Gateway sets x-forwarded-proto).

export function publicBaseUrl(headers: Record<string, string | undefined>): string {
  const base = optional(ENV.publicUrl) ?? `${headers['x-forwarded-proto'] ?? 'http'}://${headers.host ?? 'localhost'}`;
  return base.replace(/\/+$/, '');
}
