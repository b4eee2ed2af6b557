import { route } from '#infra/routes/events.ts';
import { triggerEvent } from '#lib/events/trigger.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('trigger'), ({ caller, body }) => triggerEvent(caller, body));
