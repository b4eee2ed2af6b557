import { route } from '#infra/routes/inbox-preferences.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateInboxWorkflowPreference } from '#lib/inbox/preferences-update-workflow.ts';

export const handler = httpHandler(route('updateInboxWorkflowPreferences'), ({ session, params, body }) =>
  updateInboxWorkflowPreference(session, params.workflowIdOrIdentifier, body),
);
