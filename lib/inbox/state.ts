import type { StoredMessage } from '../messages/model.ts';
import { unsnoozed } from './snooze.ts';

// What each inbox action does to a message, as the reference's inbox does it: reading marks seen,
// archiving marks read, making unread brings it out of the archive (so an unread message is never
// archived), and the first time a message is seen is kept.

export type InboxMark = 'read' | 'unread' | 'archive' | 'unarchive' | 'seen';

export function markedInInbox(m: StoredMessage, mark: InboxMark, now: string): StoredMessage {
  const seen = { seen: true, lastSeenDate: now, firstSeenDate: m.firstSeenDate ?? now, updatedAt: now };
  const read = { ...seen, read: true, lastReadDate: m.read ? m.lastReadDate : now };
  switch (mark) {
    case 'seen':
      return { ...m, ...seen };
    case 'read':
      return { ...m, ...read };
    case 'unread':
      return { ...m, ...seen, read: false, lastReadDate: undefined, archived: false, archivedAt: undefined };
    case 'archive':
      return { ...m, ...read, archived: true, archivedAt: m.archived ? m.archivedAt : now };
    case 'unarchive':
      return { ...m, ...read, archived: false, archivedAt: undefined };
  }
}

export function snoozedInInbox(m: StoredMessage, until: string, now: string): StoredMessage {
  return { ...m, snoozedUntil: until, updatedAt: now };
}

export function unsnoozedInInbox(m: StoredMessage, now: string): StoredMessage | undefined {
  return m.snoozedUntil ? unsnoozed(m, now) : undefined;
}

/** Completing an action marks it done with its type (and reads the message); reverting sets it pending again. */
export function actedOn(m: StoredMessage, actionType: 'primary' | 'secondary', done: boolean, now: string): StoredMessage {
  const cta = {
    ...m.cta,
    action: {
      ...m.cta.action,
      status: done ? ('done' as const) : ('pending' as const),
      result: { ...m.cta.action?.result, type: actionType },
    },
  };
  return { ...(done && !m.read ? markedInInbox(m, 'read', now) : m), cta, updatedAt: now };
}
