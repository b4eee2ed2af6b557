import { route } from '#infra/routes/events.ts';
import { triggerBulk } from '#lib/events/trigger.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('triggerBulk'), ({ caller, body }) => triggerBulk(caller, body));
