import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getSubscriberOrFail } from '#lib/subscribers/get.ts';

export const handler = httpHandler(route('getSubscriberV1'), ({ caller, params }) => getSubscriberOrFail(caller, params.subscriberId));
