import { signSessionToken } from '#lib/auth/session-token.ts';
import type { EnvScope } from '#lib/scope.ts';

// A session token minted directly for a subscriber, as POST /v1/inbox/session hands one out: for
// tests that need the token of a given subscriber (one deleted and made again, say).

export function sessionToken(
  scope: EnvScope,
  subscriber: { subscriberId: string; _id: string },
  contextKeys: string[] = [],
): Promise<string> {
  return signSessionToken({ ...scope, subscriberId: subscriber.subscriberId, subscriberDbId: subscriber._id, contextKeys });
}
