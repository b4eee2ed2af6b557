import { route } from '#infra/routes/events.ts';
import { triggerBroadcast } from '#lib/events/trigger.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('triggerBroadcast'), ({ caller, body }) => triggerBroadcast(caller, body));
