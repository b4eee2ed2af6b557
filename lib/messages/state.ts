import type { StateChange } from './repository.ts';
import type { MarkAs } from './schemas.ts';

// What each mark does (behavior.md "Mark-as"): reading also marks seen, unread keeps it seen, and
// lastSeenDate is stamped by every mark, unseen included.

export function stateChange(markAs: MarkAs, now: string): StateChange {
  switch (markAs) {
    case 'read':
      return { read: true, lastReadDate: now, seen: true, lastSeenDate: now, updatedAt: now };
    case 'unread':
      return { read: false, lastReadDate: now, seen: true, lastSeenDate: now, updatedAt: now };
    case 'seen':
      return { seen: true, lastSeenDate: now, updatedAt: now };
    case 'unseen':
      return { seen: false, lastSeenDate: now, updatedAt: now };
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
