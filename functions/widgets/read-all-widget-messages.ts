import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markAllWidgetMessages } from '#lib/widgets/marks.ts';

export const handler = httpHandler(route('readAllWidgetMessages'), ({ session, body }) =>
  markAllWidgetMessages(session, 'read', body.feedId),
);
