import type { SubscriberSession } from '../auth/session-token.ts';
import { UnauthorizedError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { getSubscriber } from '../subscribers/repository.ts';

// Every /v1/widgets route but the session acts for the subscriber its token was made for. As the
// reference's guard does, a token whose subscriber is gone (deleted, or deleted and made again
// under the same subscriberId: another internal id) is refused with 401, like a forged one.

export interface WidgetCaller {
  scope: EnvScope;
  subscriberId: string;
  subscriber: Subscriber;
}

export async function widgetCaller(session: SubscriberSession): Promise<WidgetCaller> {
  const scope: EnvScope = { organizationId: session.organizationId, environmentId: session.environmentId };
  const subscriber = await getSubscriber(scope, session.subscriberId);
  if (!subscriber || subscriber._id !== session.subscriberDbId) throw new UnauthorizedError('Unauthorized');
  return { scope, subscriberId: session.subscriberId, subscriber };
}
