import type { StoredMessage } from '../messages/model.ts';
import type { EnvScope } from '../scope.ts';
import { changeMessage, type Changed } from '../messages/transition.ts';

// A snoozed message leaves the inbox until `snoozedUntil`, then comes back by itself as if
// delivered again: a new `deliveredAt` entry, unread counts and a live `notification_received`.

/** The message back from its snooze, when that snooze (ending at `until`) is due; else as it is. */
export function wakeMessage(
  scope: EnvScope,
  subscriberId: string,
  messageId: string,
  until: string,
  now = new Date(),
): Promise<Changed | undefined> {
  return changeMessage(scope, subscriberId, messageId, (m) =>
    // Unsnoozed or snoozed again since, or not due yet: nothing to do.
    m.snoozedUntil === until && Date.parse(until) <= now.getTime() ? unsnoozed(m, now.toISOString()) : undefined,
  );
}

/** Back in the inbox: delivered again now. */
export function unsnoozed(m: StoredMessage, now: string): StoredMessage {
  return { ...m, snoozedUntil: undefined, deliveredAt: [...m.deliveredAt, now], updatedAt: now };
}
