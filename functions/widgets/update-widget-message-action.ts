import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateWidgetAction } from '#lib/widgets/action.ts';

export const handler = httpHandler(route('updateWidgetMessageAction'), ({ session, params, body }) =>
  updateWidgetAction(session, params.messageId, params.type, body),
);
