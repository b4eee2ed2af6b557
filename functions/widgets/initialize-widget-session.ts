import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { initializeWidgetSession } from '#lib/widgets/session.ts';

export const handler = httpHandler(route('initializeWidgetSession'), ({ body }) => initializeWidgetSession(body));
