import { route } from '#infra/routes/inbox-preferences.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateInboxGlobalPreference } from '#lib/inbox/preferences-update-global.ts';

export const handler = idempotentHttpHandler(route('updateInboxGlobalPreferences'), ({ session, body }) => updateInboxGlobalPreference(session, body));
