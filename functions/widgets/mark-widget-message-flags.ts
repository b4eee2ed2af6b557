import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markWidgetFlags } from '#lib/widgets/marks.ts';

export const handler = httpHandler(route('markWidgetMessageFlags'), ({ session, body }) => markWidgetFlags(session, body));
