import { route } from '#infra/routes/subscriber-notifications.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';
import { listInbox } from '#lib/inbox/list.ts';
import { listRequestOf } from '#lib/inbox/subscriber-schemas.ts';

export const handler = httpHandler(route('listSubscriberNotifications'), ({ caller, params, query }) =>
  listInbox(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), listRequestOf(query)),
);
