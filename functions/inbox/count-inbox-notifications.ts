import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { countInboxFilters } from '#lib/inbox/count.ts';

export const handler = httpHandler(route('countInboxNotifications'), ({ session, query }) =>
  countInboxFilters(inboxOf(session), query.filters),
);
