import type { SubscriberSession } from '../auth/session-token.ts';
import { contextKeyOf } from '../context-keys.ts';
import { NotFoundError } from '../errors.ts';
import type { StoredMessage } from '../messages/model.ts';
import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { assertSessionSubscriber } from './session-subscriber.ts';

// What every inbox use case starts from: an inbox (one subscriber's in-app messages of exactly
// some context keys, in one environment) and, for the answers, the subscriber's profile. Two
// callers open one: a subscriber's session (/v1/inbox), and an API key naming the subscriber in
// its path (/v2/subscribers/{subscriberId}/notifications). The use cases are the same for both.

export interface Inbox {
  scope: EnvScope;
  subscriberId: string;
  /**
   * The internal id a session was opened for: a subscriber deleted since, or deleted and made
   * again under the same subscriberId, is not the session's. An API key names the subscriber by
   * its subscriberId alone, whichever it is now.
   */
  subscriberDbId?: string;
  /** The exact-set form of the context keys. */
  ctx: string;
  contextKeys: string[];
}

/** The inbox a session token opens: its subscriber's, of the context it was opened with. */
export const inboxOf = (session: SubscriberSession): Inbox => ({
  scope: { organizationId: session.organizationId, environmentId: session.environmentId },
  subscriberId: session.subscriberId,
  subscriberDbId: session.subscriberDbId,
  ctx: contextKeyOf(session.contextKeys),
  contextKeys: session.contextKeys,
});

/**
 * The inbox of a subscriber of the caller's environment, of exactly these context keys (none
 * given: the messages sent without a context, as a session opened without one sees).
 */
export const inboxOfSubscriber = (caller: EnvScope, subscriberId: string, contextKeys: readonly string[] = []): Inbox => ({
  scope: { organizationId: caller.organizationId, environmentId: caller.environmentId },
  subscriberId,
  ctx: contextKeyOf(contextKeys),
  contextKeys: [...new Set(contextKeys)].sort(),
});

/** The inbox's subscriber; none (or, for a session, not the one it was opened for) is a 404. */
export async function inboxSubscriber(inbox: Inbox): Promise<Subscriber> {
  const subscriber = await getSubscriber(inbox.scope, inbox.subscriberId);
  assertSessionSubscriber(inbox, subscriber);
  return subscriber;
}

/** One message of the inbox by id: the subscriber's, in-app, of the inbox's context keys. */
export async function inboxMessage(inbox: Inbox, id: string): Promise<StoredMessage> {
  const message = await getMessage(inbox.scope, inbox.subscriberId, id.toLowerCase());
  if (!message || !inMessageInbox(inbox, message)) {
    throw new NotFoundError(`Notification with id: ${id} is not found.`);
  }
  return message;
}

/** One message of the inbox and its subscriber, read together; an unknown subscriber is told first. */
export async function inboxEntry(inbox: Inbox, id: string): Promise<{ subscriber: Subscriber; message: StoredMessage }> {
  const [subscriber, message] = await Promise.allSettled([inboxSubscriber(inbox), inboxMessage(inbox, id)]);
  if (subscriber.status === 'rejected') throw subscriber.reason;
  if (message.status === 'rejected') throw message.reason;
  return { subscriber: subscriber.value, message: message.value };
}

export const inMessageInbox = (inbox: Inbox, m: StoredMessage): boolean =>
  m.channel === 'in_app' && contextKeyOf(m.contextKeys ?? []) === inbox.ctx;
