import { route } from '#infra/routes/inbox-preferences.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateInboxGlobalPreference } from '#lib/inbox/preferences-update-global.ts';

export const handler = httpHandler(route('updateInboxGlobalPreferences'), ({ session, body }) =>
  updateInboxGlobalPreference(session, body),
);
