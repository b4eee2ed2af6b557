import { route } from '#infra/routes/events.ts';
import { triggerBroadcast } from '#lib/events/trigger.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('triggerBroadcast'), ({ caller, body }) => triggerBroadcast(caller, body));
