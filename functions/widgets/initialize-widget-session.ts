import { route } from '#infra/routes/widgets.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { initializeWidgetSession } from '#lib/widgets/session.ts';

export const handler = publicHttpHandler(route('initializeWidgetSession'), ({ body }) => initializeWidgetSession(body));
