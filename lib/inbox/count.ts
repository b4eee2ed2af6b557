import { contextKeyOf } from '../context-keys.ts';
import { MAX_INBOX_COUNT } from './counts.ts';
import { assertSupported, type InboxFilter } from './filter.ts';
import { inboxSubscriber, type Inbox } from './inbox.ts';
import { countInbox } from './repository.ts';

// GET /v1/inbox/notifications/count (and GET /v2/subscribers/{subscriberId}/notifications/count):
// how many messages each filter matches (at most 100 each), each answer echoing its filter as
// sent, which the UI keys its tab badges on.

export interface CountFilter {
  /** The filter as sent. */
  echo: Record<string, unknown>;
  filter: InboxFilter;
  /** Counts the subscriber's messages of these context keys instead of the inbox's (API-key callers only). */
  contextKeys?: string[];
}

export async function countInboxFilters(
  inbox: Inbox,
  filters: CountFilter[],
): Promise<{ count: number; filter: Record<string, unknown> }[]> {
  for (const { filter } of filters) assertSupported(filter);
  await inboxSubscriber(inbox);
  const counts = await Promise.all(
    filters.map(({ filter, contextKeys }) =>
      countInbox(inbox.scope, inbox.subscriberId, contextKeys ? contextKeyOf(contextKeys) : inbox.ctx, filter, MAX_INBOX_COUNT),
    ),
  );
  return filters.map(({ echo }, i) => ({ count: counts[i]!, filter: echo }));
}
