import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeSubscriber } from '#lib/subscribers/remove.ts';

export const handler = httpHandler(route('deleteSubscriberV1'), ({ caller, params }) => removeSubscriber(caller, params.subscriberId));
