import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createSubscriber } from '#lib/subscribers/create.ts';

export const handler = idempotentHttpHandler(route('createSubscriber'), ({ caller, body }) => createSubscriber(caller, body));
