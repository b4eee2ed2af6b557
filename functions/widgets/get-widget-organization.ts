import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { widgetOrganization } from '#lib/widgets/organization.ts';

export const handler = httpHandler(route('getWidgetOrganization'), ({ session }) => widgetOrganization(session));
