import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markAllWidgetMessages } from '#lib/widgets/marks.ts';

export const handler = httpHandler(route('seeAllWidgetMessages'), ({ session, body }) =>
  markAllWidgetMessages(session, 'seen', body.feedId),
);
