import { ENV, positiveNumber } from '../config.ts';
import { BadRequestError } from '../errors.ts';
import { announce, scheduleWake } from '../live/announce.ts';
import { deleteMessage } from '../messages/repository.ts';
import { changeMessage, type Change } from '../messages/transition.ts';
import { keys } from '../store/keys.ts';
import { inboxEntry, type Inbox } from './inbox.ts';
import { inboxNotification, type InboxNotification } from './message-views.ts';
import { maxSnoozeHours } from './session.ts';
import { actedOn, markedInInbox, snoozedInInbox, unsnoozedInInbox, type InboxMark } from './state.ts';

// The actions on one message of an inbox (PATCH /v1/inbox/notifications/{id}/<action>, DELETE
// …/delete, and their API-key views under /v2/subscribers/{subscriberId}/notifications). Each
// changes the message through the one state mechanism (lib/messages/transition.ts) and tells the
// subscriber's open sockets (lib/live/announce.ts); webhooks follow from the stored change.

/** A snooze must end at least this far ahead (the reference's minute, unless the stage sets another). */
const minSnoozeMs = () => positiveNumber(ENV.inboxMinSnoozeSeconds, 60) * 1000;

async function act(
  inbox: Inbox,
  id: string,
  change: (now: string) => Change,
): Promise<{ notification: InboxNotification; changed: boolean }> {
  const { message, subscriber } = await inboxEntry(inbox, id);
  const result = await changeMessage(inbox.scope, inbox.subscriberId, message, change(new Date().toISOString()));
  // Deleted meanwhile: as if it had never been there.
  if (!result) return act(inbox, id, change);
  return { notification: inboxNotification(result.message, subscriber), changed: result.changed };
}

export async function markInboxMessage(inbox: Inbox, id: string, mark: InboxMark): Promise<InboxNotification> {
  const { notification, changed } = await act(inbox, id, (now) => (m) => markedInInbox(m, mark, now));
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function snoozeInboxMessage(inbox: Inbox, id: string, snoozeUntil: string): Promise<InboxNotification> {
  const until = new Date(snoozeUntil);
  const now = Date.now();
  const min = minSnoozeMs();
  if (until.getTime() < now + min) throw new BadRequestError(`snoozeUntil must be at least ${min / 1000} seconds in the future`);
  const maxHours = maxSnoozeHours();
  if (until.getTime() > now + maxHours * 3_600_000)
    throw new BadRequestError(`snoozeUntil must be at most ${maxHours} hours in the future`);
  const iso = until.toISOString();
  const { notification } = await act(inbox, id, (at) => (m) => snoozedInInbox(m, iso, at));
  await scheduleWake(inbox.scope, inbox.subscriberId, notification.id, until);
  await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function unsnoozeInboxMessage(inbox: Inbox, id: string): Promise<InboxNotification> {
  const { notification, changed } = await act(inbox, id, (now) => (m) => unsnoozedInInbox(m, now));
  // Back in the inbox: every open socket gets it, as when it arrived.
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'received', messageId: notification.id });
  return notification;
}

export async function actOnInboxMessage(
  inbox: Inbox,
  id: string,
  actionType: 'primary' | 'secondary',
  done: boolean,
): Promise<InboxNotification> {
  const { message } = await inboxEntry(inbox, id);
  if (!message.cta.action?.buttons?.some((b) => b.type === actionType))
    throw new BadRequestError(`Notification with id: ${id} has no ${actionType} action`);
  const { notification, changed } = await act(inbox, id, (now) => (m) => actedOn(m, actionType, done, now));
  if (changed) await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
  return notification;
}

export async function deleteInboxMessage(inbox: Inbox, id: string): Promise<void> {
  const { message } = await inboxEntry(inbox, id);
  await deleteMessage(keys.message(inbox.scope, inbox.subscriberId, message._id));
  await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
}
