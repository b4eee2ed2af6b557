import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { bulkCreateSubscribers } from '#lib/subscribers/bulk.ts';

export const handler = idempotentHttpHandler(route('bulkCreateSubscribers'), ({ caller, body }) => bulkCreateSubscribers(caller, body));
