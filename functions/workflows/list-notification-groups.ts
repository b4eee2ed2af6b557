import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listNotificationGroups } from '#lib/workflows/notification-group.ts';

export const handler = httpHandler(route('listNotificationGroups'), async ({ caller }) => listNotificationGroups(caller));
