import type { SubscriberSession } from '../auth/session-token.ts';
import { contextKeyOf } from '../context-keys.ts';
import { NotFoundError } from '../errors.ts';
import type { StoredMessage } from '../messages/model.ts';
import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { assertSessionSubscriber } from './session-subscriber.ts';

// What every inbox use case starts from: the session's inbox (its subscriber's in-app messages
// of exactly its context keys) and, for the answers, the subscriber's profile.

export interface Inbox {
  scope: EnvScope;
  subscriberId: string;
  /** The internal id the session was opened for. */
  subscriberDbId: string;
  /** The exact-set form of the session's context keys. */
  ctx: string;
  contextKeys: string[];
}

export const inboxOf = (session: SubscriberSession): Inbox => ({
  scope: { organizationId: session.organizationId, environmentId: session.environmentId },
  subscriberId: session.subscriberId,
  subscriberDbId: session.subscriberDbId,
  ctx: contextKeyOf(session.contextKeys),
  contextKeys: session.contextKeys,
});

/** The session's subscriber; a session outliving its subscriber opens nothing. */
export async function inboxSubscriber(inbox: Inbox): Promise<Subscriber> {
  const subscriber = await getSubscriber(inbox.scope, inbox.subscriberId);
  assertSessionSubscriber(inbox, subscriber);
  return subscriber!;
}

/** One message of the inbox by id: the subscriber's, in-app, of the session's context keys. */
export async function inboxMessage(inbox: Inbox, id: string): Promise<StoredMessage> {
  const message = await getMessage(inbox.scope, inbox.subscriberId, id.toLowerCase());
  if (!message || message.channel !== 'in_app' || contextKeyOf(message.contextKeys ?? []) !== inbox.ctx) {
    throw new NotFoundError(`Notification with id: ${id} is not found.`);
  }
  return message;
}

export const inMessageInbox = (inbox: Inbox, m: StoredMessage): boolean =>
  m.channel === 'in_app' && contextKeyOf(m.contextKeys ?? []) === inbox.ctx;
