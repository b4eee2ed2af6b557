import { announce } from '../live/announce.ts';
import type { StoredMessage } from '../messages/model.ts';
import { deleteMessage, getMessagesOfSubscriber } from '../messages/repository.ts';
import { changeMessage } from '../messages/transition.ts';
import { mapConcurrently } from '../concurrency.ts';
import { keys } from '../store/keys.ts';
import type { DataCondition, InboxFilter } from './filter.ts';
import { inboxSubscriber, inMessageInbox, type Inbox } from './inbox.ts';
import { inboxIdPages } from './repository.ts';
import { markedInInbox, type InboxMark } from './state.ts';

// The bulk actions of an inbox (POST /v1/inbox/notifications/read|archive|read-archive|delete|seen,
// and their API-key views under /v2/subscribers/{subscriberId}/notifications): every message of
// the inbox that matches the tags and data given, and is in the state the action changes, a page
// at a time. Each change is the one state mechanism's, so a message changed meanwhile is decided
// again, never overwritten.

const CONCURRENT_CHANGES = 10;

export type BulkAction = 'read' | 'archive' | 'read-archive' | 'delete' | 'seen';

export interface Selection {
  tags?: string[][];
  data?: DataCondition[];
  /** seen only: exactly these messages. */
  notificationIds?: string[];
}

/** Which messages each action changes (beyond the selection), and how. */
const ACTIONS: Record<Exclude<BulkAction, 'delete'>, { from: InboxFilter; mark: InboxMark }> = {
  read: { from: { read: false }, mark: 'read' },
  archive: { from: { archived: false }, mark: 'archive' },
  'read-archive': { from: { read: true, archived: false }, mark: 'archive' },
  seen: { from: { seen: false }, mark: 'seen' },
};

const matches = (m: StoredMessage, from: InboxFilter) =>
  Object.entries(from).every(([field, value]) => m[field as keyof StoredMessage] === value);

export async function bulkInboxAction(inbox: Inbox, action: BulkAction, selection: Selection): Promise<void> {
  await inboxSubscriber(inbox);
  const now = new Date().toISOString();
  const change = action === 'delete' ? undefined : ACTIONS[action];
  const filter: InboxFilter = {
    ...change?.from,
    ...(selection.tags?.length && { tags: selection.tags }),
    ...(selection.data?.length && { data: selection.data }),
  };
  let changed = 0;
  const apply = async (ids: string[]) => {
    const messages = (await getMessagesOfSubscriber(inbox.scope, inbox.subscriberId, ids)).filter((m) => inMessageInbox(inbox, m));
    const done = await mapConcurrently(messages, CONCURRENT_CHANGES, async (m) => {
      if (!change) return deleteMessage(keys.message(inbox.scope, inbox.subscriberId, m._id));
      const result = await changeMessage(inbox.scope, inbox.subscriberId, m, (current) =>
        matches(current, change.from) ? markedInInbox(current, change.mark, now) : undefined,
      );
      return result?.changed ?? false;
    });
    changed += done.filter(Boolean).length;
  };
  if (action === 'seen' && selection.notificationIds) await apply(selection.notificationIds.map((id) => id.toLowerCase()));
  else for await (const ids of inboxIdPages(inbox.scope, inbox.subscriberId, inbox.ctx, filter)) await apply(ids);
  if (changed > 0) await announce(inbox.scope, inbox.subscriberId, { kind: 'counts' });
}
