import { assertSupported } from './filter.ts';
import { inboxSubscriber, type Inbox } from './inbox.ts';
import { inboxNotification, type InboxNotification } from './message-views.ts';
import { inboxPage } from './repository.ts';
import type { ListRequest } from './schemas.ts';

// GET /v1/inbox/notifications (and GET /v2/subscribers/{subscriberId}/notifications): a page of an
// inbox, newest first, as the clients read it (not enveloped: `{data, hasMore, filter}`).

export interface NotificationList {
  data: InboxNotification[];
  hasMore: boolean;
  filter: Record<string, unknown>;
}

export async function listInbox(inbox: Inbox, query: ListRequest): Promise<NotificationList> {
  assertSupported(query.filter);
  const [subscriber, page] = await Promise.all([
    inboxSubscriber(inbox),
    inboxPage(inbox.scope, inbox.subscriberId, inbox.ctx, {
      filter: query.filter,
      after: query.after?.toLowerCase(),
      offset: query.offset,
      limit: query.limit,
    }),
  ]);
  return { data: page.messages.map((m) => inboxNotification(m, subscriber)), hasMore: page.hasMore, filter: query.echo };
}
