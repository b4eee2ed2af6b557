import type { SubscriberSession } from '../auth/session-token.ts';
import { mapConcurrently } from '../concurrency.ts';
import { NotFoundError } from '../errors.ts';
import { announce } from '../live/announce.ts';
import type { StoredMessage } from '../messages/model.ts';
import { deleteMessage, getMessage, getMessagesOfSubscriber, messageIdPages } from '../messages/repository.ts';
import { keys } from '../store/keys.ts';
import { widgetCaller, type WidgetCaller } from './subscriber.ts';
import { widgetMessage } from '../messages/widget-view.ts';

// The widget's removals: one message, some by id, or all (of a feed). Each reads and deletes only
// under the caller's own subscriber key, so an id of another subscriber's message is simply not
// found (the reference deletes it: any subscriber of the environment could). A removal is a
// delete, the same one `DELETE /v1/messages/{id}` does; open sockets learn the new counts.

const CONCURRENT_DELETES = 10;

/** DELETE /messages/{id}: the removed message, 404 when the caller has no such in-app message. */
export async function removeWidgetMessage(session: SubscriberSession, messageId: string) {
  const caller = await widgetCaller(session);
  const message = await getMessage(caller.scope, caller.subscriberId, messageId.toLowerCase());
  const deleted = message?.channel === 'in_app' ? await remove(caller, [message]) : [];
  if (deleted.length === 0) throw new NotFoundError(`Message with id ${messageId} not found`);
  return widgetMessage(deleted[0]!, caller.subscriber);
}

/** POST /messages/bulk/delete: those of the ids that are the caller's in-app messages. */
export async function removeWidgetMessages(session: SubscriberSession, messageIds: string[]): Promise<Record<string, never>> {
  const caller = await widgetCaller(session);
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))];
  const messages = await getMessagesOfSubscriber(caller.scope, caller.subscriberId, ids);
  await remove(
    caller,
    messages.filter((m) => m.channel === 'in_app'),
  );
  return {};
}

/** DELETE /messages: every in-app message of the caller (of one feed, if named), a Query page at a time. */
export async function removeAllWidgetMessages(session: SubscriberSession, feedId: string | undefined): Promise<void> {
  const caller = await widgetCaller(session);
  const range = { of: 'subscriber' as const, subscriberId: caller.subscriberId };
  const filter = { channel: 'in_app' as const, ...(feedId !== undefined && { feedIds: [feedId] }) };
  const deleted: StoredMessage[] = [];
  for await (const ids of messageIdPages(caller.scope, range, filter)) {
    deleted.push(...(await deleteAll(caller, ids)));
  }
  if (deleted.length > 0) await announce(caller.scope, caller.subscriberId, { kind: 'counts' });
}

async function remove(caller: WidgetCaller, messages: StoredMessage[]): Promise<StoredMessage[]> {
  const deleted = await deleteAll(
    caller,
    messages.map((m) => m._id),
  );
  if (deleted.length > 0) await announce(caller.scope, caller.subscriberId, { kind: 'counts' });
  return deleted;
}

/** Deletes the caller's messages of these ids; those deleted meanwhile are left out. */
async function deleteAll(caller: WidgetCaller, ids: string[]): Promise<StoredMessage[]> {
  const deleted = await mapConcurrently(ids, CONCURRENT_DELETES, (id) =>
    deleteMessage(keys.message(caller.scope, caller.subscriberId, id)),
  );
  return deleted.filter((m): m is StoredMessage => m !== undefined);
}
