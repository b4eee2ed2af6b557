import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { widgetPreferences } from '#lib/widgets/preferences.ts';

export const handler = httpHandler(route('getWidgetPreferencesByLevel'), ({ session, params }) =>
  widgetPreferences(session, params.parameter),
);
