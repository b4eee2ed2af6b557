import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { identifySubscriber } from '#lib/subscribers/identify.ts';

export const handler = idempotentHttpHandler(route('identifySubscriber'), ({ caller, body }) => identifySubscriber(caller, body));
