import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markWidgetMessagesAs } from '#lib/widgets/marks.ts';

export const handler = httpHandler(route('markWidgetMessagesAs'), ({ session, body }) => markWidgetMessagesAs(session, body));
