import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { createSubscriber } from '#lib/subscribers/create.ts';

export const handler = httpHandler(route('createSubscriber'), ({ caller, body }) => createSubscriber(caller, body));
