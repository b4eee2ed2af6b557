import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeAllWidgetMessages } from '#lib/widgets/remove.ts';

export const handler = httpHandler(route('removeAllWidgetMessages'), ({ session, query }) =>
  removeAllWidgetMessages(session, query.feedId),
);
