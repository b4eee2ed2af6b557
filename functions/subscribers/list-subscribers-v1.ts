import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { pageOfSubscribers } from '#lib/subscribers/list-page.ts';

export const handler = httpHandler(route('listSubscribersV1'), ({ caller, query }) => pageOfSubscribers(caller, query));
