import type { SubscriberSession } from '../auth/session-token.ts';
import { MAX_INBOX_COUNT } from './counts.ts';
import type { InboxFilter } from './filter.ts';
import { inboxOf, inboxSubscriber } from './inbox.ts';
import { assertSupported } from './list.ts';
import { countInbox } from './repository.ts';

// GET /v1/inbox/notifications/count: how many messages each filter matches (at most 100 each),
// each answer echoing its filter as sent, which the UI keys its tab badges on.

export async function countInboxFilters(session: SubscriberSession, filters: { echo: Record<string, unknown>; filter: InboxFilter }[]) {
  for (const { filter } of filters) assertSupported(filter);
  const inbox = inboxOf(session);
  await inboxSubscriber(inbox);
  const counts = await Promise.all(
    filters.map(({ filter }) => countInbox(inbox.scope, inbox.subscriberId, inbox.ctx, filter, MAX_INBOX_COUNT)),
  );
  return { data: filters.map(({ echo }, i) => ({ count: counts[i]!, filter: echo })) };
}
