import type { StoredMessage } from './model.ts';
import type { MarkAs } from './schemas.ts';

// What each mark of the API-key routes does (behavior.md "Mark-as"): reading also marks seen,
// unread keeps it seen, and lastSeenDate is stamped by every mark, unseen included. The first
// time a message is seen is kept (firstSeenDate, which the inbox shows).

export function marked(message: StoredMessage, markAs: MarkAs, now: string): StoredMessage {
  const seen = { seen: true, lastSeenDate: now, firstSeenDate: message.firstSeenDate ?? now };
  switch (markAs) {
    case 'read':
      return { ...message, ...seen, read: true, lastReadDate: now, updatedAt: now };
    case 'unread':
      return { ...message, ...seen, read: false, lastReadDate: now, updatedAt: now };
    case 'seen':
      return { ...message, ...seen, updatedAt: now };
    case 'unseen':
      return { ...message, seen: false, lastSeenDate: now, updatedAt: now };
  }
}

/**
 * The state mark-all changes: as in the reference, only messages not yet in the target state,
 * so its count is of messages that changed.
 */
export function stateBefore(markAs: MarkAs): { read: boolean } | { seen: boolean } {
  switch (markAs) {
    case 'read':
      return { read: false };
    case 'unread':
      return { read: true };
    case 'seen':
      return { seen: false };
    case 'unseen':
      return { seen: true };
  }
}
