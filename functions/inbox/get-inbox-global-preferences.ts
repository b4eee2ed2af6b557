import { route } from '#infra/routes/inbox-preferences.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getInboxGlobalPreference } from '#lib/inbox/preferences-read.ts';

export const handler = httpHandler(route('getInboxGlobalPreferences'), ({ session }) => getInboxGlobalPreference(session));
