import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { countRequest, widgetCount } from '#lib/widgets/counts.ts';

export const handler = httpHandler(route('getWidgetCount'), ({ session, query }) => widgetCount(session, countRequest(query)));
