import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeWidgetMessage } from '#lib/widgets/remove.ts';

export const handler = httpHandler(route('removeWidgetMessage'), ({ session, params }) => removeWidgetMessage(session, params.messageId));
