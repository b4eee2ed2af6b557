import { route } from '#infra/routes/events.ts';
import { triggerBulk } from '#lib/events/trigger.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('triggerBulk'), ({ caller, body }) => triggerBulk(caller, body));
