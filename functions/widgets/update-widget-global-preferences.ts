import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateWidgetGlobalPreferences } from '#lib/widgets/preferences.ts';

export const handler = httpHandler(route('updateWidgetGlobalPreferences'), ({ session, body }) =>
  updateWidgetGlobalPreferences(session, body),
);
