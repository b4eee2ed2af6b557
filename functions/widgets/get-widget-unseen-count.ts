import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { widgetCount } from '#lib/widgets/counts.ts';

export const handler = httpHandler(route('getWidgetUnseenCount'), ({ session, query }) => widgetCount(session, query));
