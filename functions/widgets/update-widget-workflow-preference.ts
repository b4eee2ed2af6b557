import { route } from '#infra/routes/widgets.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateWidgetWorkflowPreference } from '#lib/widgets/preferences.ts';

export const handler = httpHandler(route('updateWidgetWorkflowPreference'), ({ session, params, body }) =>
  updateWidgetWorkflowPreference(session, params.parameter, body),
);
