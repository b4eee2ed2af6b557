import type { MessageButton, StoredMessage } from './model.ts';
import type { MarkAs } from './schemas.ts';

// What each mark of the API-key routes does: reading also marks seen,
// unread keeps it seen, and lastSeenDate is stamped by every mark, unseen included. The first
// time a message is seen is kept (firstSeenDate, which the inbox shows). The legacy routes' marks
// (`flagged`, `actionUpdated`) are at the end.

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

/**
 * The legacy markAs: sets just the flags sent (`{seen?, read?}`), stamping the date of each; the
 * first time a message is seen is kept. Nothing sent: nothing changes.
 */
export function flagged(
  message: StoredMessage,
  mark: { seen?: boolean | undefined; read?: boolean | undefined },
  now: string,
): StoredMessage | undefined {
  if (mark.seen === undefined && mark.read === undefined) return undefined;
  let next: StoredMessage = { ...message, updatedAt: now };
  if (mark.seen !== undefined)
    next = { ...next, seen: mark.seen, lastSeenDate: now, ...(mark.seen && { firstSeenDate: message.firstSeenDate ?? now }) };
  if (mark.read !== undefined) next = { ...next, read: mark.read, lastReadDate: now };
  return next;
}

/** The legacy action update: the action's status, the button it was taken with and the payload sent (kept otherwise). */
export function actionUpdated(
  message: StoredMessage,
  type: MessageButton['type'],
  input: { status: 'pending' | 'done'; payload?: Record<string, unknown> | undefined },
  now: string,
): StoredMessage {
  const action = message.cta.action ?? {};
  const result = { ...action.result, type, ...(input.payload !== undefined && { payload: input.payload }) };
  return { ...message, cta: { ...message.cta, action: { ...action, status: input.status, result } }, updatedAt: now };
}
