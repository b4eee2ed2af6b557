import { route } from '#infra/routes/inbox-preferences.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listInboxPreferences } from '#lib/inbox/preferences-read.ts';
import { preferencesFilterOf } from '#lib/inbox/preferences-schemas.ts';

export const handler = httpHandler(route('listInboxPreferences'), ({ session, query }) =>
  listInboxPreferences(session, preferencesFilterOf(query)),
);
