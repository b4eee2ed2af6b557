import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { requireNotificationGroup } from '#lib/workflows/notification-group.ts';

export const handler = httpHandler(route('getNotificationGroup'), async ({ caller, params }) =>
  requireNotificationGroup(caller, params.id),
);
