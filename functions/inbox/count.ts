import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { countInboxFilters } from '#lib/inbox/count.ts';

export const handler = httpHandler(route('countInboxNotifications'), ({ session, query }) => countInboxFilters(session, query.filters));
