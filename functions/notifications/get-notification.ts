import { route } from '#infra/routes/notifications.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getActivityNotification } from '#lib/activity/get.ts';

export const handler = httpHandler(route('getNotification'), ({ caller, params }) =>
  getActivityNotification(caller, params.notificationId),
);
