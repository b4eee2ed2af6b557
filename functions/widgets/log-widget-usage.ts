import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { logWidgetUsage } from '#lib/widgets/usage.ts';

export const handler = httpHandler(route('logWidgetUsage'), ({ session, body }) => logWidgetUsage(session, body));
