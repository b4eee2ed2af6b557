import { route } from '#infra/routes/inbox-preferences.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateInboxWorkflowPreference } from '#lib/inbox/preferences-update-workflow.ts';

export const handler = idempotentHttpHandler(route('updateInboxWorkflowPreferences'), ({ session, params, body }) =>
  updateInboxWorkflowPreference(session, params.workflowIdOrIdentifier, body),
);
