import { openSession } from '../inbox/session.ts';
import { verifySessionToken } from '../auth/session-token.ts';
import type { SessionInitializeInput } from './schemas.ts';
import { widgetCaller } from './subscriber.ts';

// POST /v1/widgets/session/initialize: the legacy clients' name for POST /v1/inbox/session. It
// is that session, with its rules (the active in-app integration, HMAC when on, a profile changed
// only under a valid hash) and its token, so one token opens both APIs; only the shape differs:
// `hmacHash` for `subscriberHash`, and `{token, profile}` back.

export async function initializeWidgetSession(input: SessionInitializeInput) {
  const { applicationIdentifier, subscriberId, hmacHash, ...profile } = input;
  const { token } = await openSession({
    applicationIdentifier,
    subscriber: { subscriberId, ...profile },
    ...(hmacHash && { subscriberHash: hmacHash }),
  });
  // The token names the environment and the subscriber the session made or found.
  const session = (await verifySessionToken(token))!;
  const { subscriber } = await widgetCaller(session);
  return {
    token,
    profile: {
      _id: subscriber._id,
      firstName: subscriber.firstName ?? undefined,
      lastName: subscriber.lastName ?? undefined,
      phone: subscriber.phone ?? undefined,
    },
  };
}
