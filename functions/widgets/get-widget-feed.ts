import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { widgetFeed } from '#lib/widgets/feed.ts';

export const handler = httpHandler(route('getWidgetFeed'), ({ session, query }) => widgetFeed(session, query));
