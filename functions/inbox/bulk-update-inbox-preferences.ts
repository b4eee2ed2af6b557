import { route } from '#infra/routes/inbox-preferences.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { bulkUpdateInboxPreferences } from '#lib/inbox/preferences-update-workflow.ts';

export const handler = httpHandler(route('bulkUpdateInboxPreferences'), ({ session, body }) => bulkUpdateInboxPreferences(session, body));
