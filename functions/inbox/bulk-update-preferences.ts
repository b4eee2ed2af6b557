import { route } from '#infra/routes/inbox-preferences.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { bulkUpdateInboxPreferences } from '#lib/inbox/preferences-update-workflow.ts';

export const handler = idempotentHttpHandler(route('bulkUpdateInboxPreferences'), ({ session, body }) => bulkUpdateInboxPreferences(session, body));
