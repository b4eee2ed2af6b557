import { announce } from '../live/announce.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { StoredMessage } from './model.ts';
import type { EnvScope } from '../scope.ts';
import { getMessagesOfSubscriber } from './repository.ts';
import type { MarkAsInput } from './schemas.ts';
import { marked } from './state.ts';
import { changeMessage } from './transition.ts';
import { assertSubscriberExists } from './subscriber.ts';
import { messageView } from './view.ts';

const CONCURRENT_UPDATES = 10;

/**
 * Marks the listed messages of the subscriber read, unread, seen or unseen and returns them as
 * they are now, in the order asked. Ids that are not this subscriber's are ignored (the reference
 * does so); any channel is marked, not only in-app.
 */
export function markMessagesAs(scope: EnvScope, subscriberId: string, input: MarkAsInput): Promise<StoredMessage[]> {
  return changeListedMessages(scope, subscriberId, [input.messageId].flat(), (message, now) => marked(message, input.markAs, now));
}

/**
 * Changes the listed messages of the subscriber through the one state mechanism and returns them
 * as they are now (changed or not), in the order asked; an open inbox learns the new counts.
 */
export async function changeListedMessages(
  scope: EnvScope,
  subscriberId: string,
  messageIds: readonly string[],
  change: (message: StoredMessage, now: string) => StoredMessage | undefined,
): Promise<StoredMessage[]> {
  await assertSubscriberExists(scope, subscriberId);
  // Ids are hex: the reference accepts either case, and ours are stored lower-case.
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))];
  const found = new Map((await getMessagesOfSubscriber(scope, subscriberId, ids)).map((m) => [m._id, m]));
  const messages = ids.flatMap((id) => found.get(id) ?? []);
  const now = new Date().toISOString();
  // A message deleted since it was read is left out rather than written back.
  const updated = await mapConcurrently(messages, CONCURRENT_UPDATES, (m) =>
    changeMessage(scope, subscriberId, m, (current) => change(current, now)),
  );
  const changed = updated.filter((c): c is NonNullable<typeof c> => c !== undefined);
  if (changed.some((c) => c.changed && c.message.channel === 'in_app')) await announce(scope, subscriberId, { kind: 'counts' });
  return changed.map((c) => messageView(c.message));
}
