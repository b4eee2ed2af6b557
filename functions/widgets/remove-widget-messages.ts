import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeWidgetMessages } from '#lib/widgets/remove.ts';

export const handler = httpHandler(route('removeWidgetMessages'), ({ session, body }) => removeWidgetMessages(session, body.messageIds));
