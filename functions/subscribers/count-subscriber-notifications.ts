import { route } from '#infra/routes/subscriber-notifications.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { countInboxFilters } from '#lib/inbox/count.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = httpHandler(route('countSubscriberNotifications'), ({ caller, params, query }) =>
  countInboxFilters(inboxOfSubscriber(caller, params.subscriberId), query.filters),
);
