import { route } from '#infra/routes/notifications.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listNotifications } from '#lib/activity/list.ts';

export const handler = httpHandler(route('listNotifications'), ({ caller, query }) => listNotifications(caller, query));
