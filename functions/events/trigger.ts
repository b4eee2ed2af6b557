import { route } from '#infra/routes/events.ts';
import { triggerEvent } from '#lib/events/trigger.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('trigger'), ({ caller, body }) => triggerEvent(caller, body));
