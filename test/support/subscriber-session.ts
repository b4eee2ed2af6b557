import { signSessionToken } from '#lib/auth/session-token.ts';
import type { EnvScope } from '#lib/store/keys.ts';
import { apiClient, type ApiClient } from './api.ts';

// Inbox routes take a subscriber's session token (`Authorization: Bearer …`). Tests mint one for a
// subscriber directly, as POST /v1/inbox/session would hand it out.

export function sessionToken(scope: EnvScope, subscriber: { subscriberId: string; _id: string }, contextKeys: string[] = []): Promise<string> {
  return signSessionToken({ ...scope, subscriberId: subscriber.subscriberId, subscriberDbId: subscriber._id, contextKeys });
}

/** A client that sends the session token on every call. */
export function sessionClient(baseUrl: string, token: string): ApiClient {
  const client = apiClient(baseUrl);
  const auth = (headers?: Record<string, string>) => ({ authorization: `Bearer ${token}`, ...headers });
  return {
    request: (method, path, options = {}) => client.request(method, path, { ...options, headers: auth(options.headers) }),
    get: (path, headers) => client.get(path, auth(headers)),
    post: (path, body, headers) => client.post(path, body, auth(headers)),
    put: (path, body, headers) => client.put(path, body, auth(headers)),
    patch: (path, body, headers) => client.patch(path, body, auth(headers)),
    delete: (path, headers) => client.delete(path, auth(headers)),
  };
}
