import type { SubscriberSession } from '../auth/session-token.ts';
import { ENV, positiveNumber } from '../config.ts';
import { BadRequestError } from '../errors.ts';
import { announce, scheduleWake } from '../live/announce.ts';
import { deleteMessage } from '../messages/repository.ts';
import { changeMessage, type Change } from '../messages/transition.ts';
import { keys } from '../store/keys.ts';
import { inboxMessage, inboxOf, inboxSubscriber, type Inbox } from './inbox.ts';
import { inboxNotification, type InboxNotification } from './message-views.ts';
import { maxSnoozeHours } from './session.ts';
import { actedOn, markedInInbox, snoozedInInbox, unsnoozedInInbox, type InboxMark } from './state.ts';

// The actions on one message of the inbox (PATCH /v1/inbox/notifications/{id}/<action>, DELETE
// …/delete). Each changes the message through the one state mechanism (lib/messages/transition.ts)
// and tells the subscriber's open sockets (lib/live/announce.ts).

/** A snooze must end at least this far ahead (the reference's minute, unless the stage sets another). */
const minSnoozeMs = () => positiveNumber(ENV.inboxMinSnoozeSeconds, 60) * 1000;

async function act(
  session: SubscriberSession,
  id: string,
  change: (now: string) => Change,
): Promise<{ inbox: Inbox; notification: InboxNotification; changed: boolean }> {
  const inbox = inboxOf(session);
  const [message, subscriber] = await Promise.all([inboxMessage(inbox, id), inboxSubscriber(inbox)]);
  const result = await changeMessage(inbox.scope, inbox.subscriberId, message, change(new Date().toISOString()));
  // Deleted meanwhile: as if it had never been there.
  if (!result) return act(session, id, change);
  return { inbox, notification: inboxNotification(result.message, subscriber), changed: result.changed };
}

export async function markInboxMessage(session: SubscriberSession, id: string, mark: InboxMark): Promise<InboxNotification> {
  const { inbox, notification, changed } = await act(session, id, (now) => (m) => markedInInbox(m, mark, now));
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function snoozeInboxMessage(session: SubscriberSession, id: string, snoozeUntil: string): Promise<InboxNotification> {
  const until = new Date(snoozeUntil);
  const now = Date.now();
  const min = minSnoozeMs();
  if (until.getTime() < now + min) throw new BadRequestError(`snoozeUntil must be at least ${min / 1000} seconds in the future`);
  const maxHours = maxSnoozeHours();
  if (until.getTime() > now + maxHours * 3_600_000)
    throw new BadRequestError(`snoozeUntil must be at most ${maxHours} hours in the future`);
  const iso = until.toISOString();
  const { inbox, notification } = await act(session, id, (at) => (m) => snoozedInInbox(m, iso, at));
  await scheduleWake(inbox.scope, inbox.subscriberId, notification.id, until);
  await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function unsnoozeInboxMessage(session: SubscriberSession, id: string): Promise<InboxNotification> {
  const { inbox, notification, changed } = await act(session, id, (now) => (m) => unsnoozedInInbox(m, now));
  // Back in the inbox: every open socket gets it, as when it arrived.
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'received', messageId: notification.id });
  return notification;
}

export async function actOnInboxMessage(
  session: SubscriberSession,
  id: string,
  actionType: 'primary' | 'secondary',
  done: boolean,
): Promise<InboxNotification> {
  const inbox = inboxOf(session);
  const message = await inboxMessage(inbox, id);
  if (!message.cta.action?.buttons?.some((b) => b.type === actionType))
    throw new BadRequestError(`Notification with id: ${id} has no ${actionType} action`);
  const { notification, changed } = await act(session, id, (now) => (m) => actedOn(m, actionType, done, now));
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function deleteInboxMessage(session: SubscriberSession, id: string): Promise<void> {
  const inbox = inboxOf(session);
  const [message] = await Promise.all([inboxMessage(inbox, id), inboxSubscriber(inbox)]);
  await deleteMessage(keys.message(inbox.scope, inbox.subscriberId, message._id));
  await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
}
