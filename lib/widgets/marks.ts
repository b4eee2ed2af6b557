import type { SubscriberSession } from '../auth/session-token.ts';
import { changeListedMessages } from '../messages/mark-as.ts';
import { markAllMessagesAs } from '../messages/mark-all.ts';
import type { StoredMessage } from '../messages/model.ts';
import { flagged, marked } from '../messages/state.ts';
import type { MarkAsInput, MarkFlagsInput } from './schemas.ts';
import { widgetCaller } from './subscriber.ts';
import { widgetMessage } from '../messages/widget-view.ts';

// The widget's marks, through the one state mechanism the API-key routes and the inbox use
// (lib/messages/state.ts), so a message read here is read everywhere. Only the caller's in-app
// messages are changed and answered: an id of another subscriber is neither (the reference
// answers those too, in full; we do not).

/** POST /messages/markAs: exactly the flags sent (`{seen?, read?}`), as the reference's changeStatus. */
export function markWidgetFlags(session: SubscriberSession, input: MarkFlagsInput) {
  return changeOwn(session, input.messageId, (m, now) => flagged(m, input.mark, now));
}

/** POST /messages/mark-as: read also marks seen, unread keeps it seen (the reference's rule). */
export function markWidgetMessagesAs(session: SubscriberSession, input: MarkAsInput) {
  return changeOwn(session, input.messageId, (m, now) => marked(m, input.markAs, now));
}

async function changeOwn(session: SubscriberSession, ids: string[], change: (m: StoredMessage, now: string) => StoredMessage | undefined) {
  const { scope, subscriberId, subscriber } = await widgetCaller(session);
  const changed = await changeListedMessages(scope, subscriberId, ids, (m, now) => (m.channel === 'in_app' ? change(m, now) : undefined));
  return changed.filter((m) => m.channel === 'in_app').map((m) => widgetMessage(m, subscriber));
}

/** POST /messages/read | seen: every in-app message not yet so (of the feeds named, if any); answers how many changed. */
export async function markAllWidgetMessages(session: SubscriberSession, markAs: 'read' | 'seen', feedId: string | string[] | undefined) {
  const { scope, subscriberId } = await widgetCaller(session);
  return markAllMessagesAs(scope, subscriberId, { markAs, ...(feedId !== undefined && { feedIdentifier: feedId }) });
}
