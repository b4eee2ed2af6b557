import { findCallerByApiKey } from '../auth/api-keys.ts';
import { verifySessionToken } from '../auth/session-token.ts';
import { UnauthorizedError } from '../errors.ts';
import type { HttpEvent, Middleware } from './middleware.ts';

// Who calls a route that has auth: the middlewares httpHandler (handler.ts) puts in its chain,
// apart from the shared ones (middleware.ts) so that the routes without auth do not carry them.

/** The credential of `Authorization: <scheme> <credential>`; 401 without the header or with another scheme. */
function credentialOf(event: HttpEvent, scheme: 'ApiKey' | 'Bearer'): string | undefined {
  const header = event.headers?.authorization;
  if (!header) throw new UnauthorizedError('Missing authorization header');
  const [sent, credential] = header.trim().split(/\s+/, 2);
  if (sent !== scheme) throw new UnauthorizedError(`Invalid authentication scheme: "${sent}"`);
  return credential;
}

/** `Authorization: ApiKey <key>`: the environment the key belongs to (the server-side API). */
export function authenticate(): Middleware {
  return {
    before: async ({ event }) => {
      const key = credentialOf(event, 'ApiKey');
      const caller = key ? await findCallerByApiKey(key) : undefined;
      if (!caller) throw new UnauthorizedError('API Key not found');
      event.caller = caller;
    },
  };
}

/** `Authorization: Bearer <session token>`: the subscriber the token opens (inbox routes). */
export function authenticateSubscriber(): Middleware {
  return {
    before: async ({ event }) => {
      const token = credentialOf(event, 'Bearer');
      const session = token ? await verifySessionToken(token) : undefined;
      if (!session) throw new UnauthorizedError('Invalid or expired session token');
      event.session = session;
    },
  };
}
