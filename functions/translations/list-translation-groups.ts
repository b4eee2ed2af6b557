import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listGroups } from '#lib/translations/read.ts';

export const handler = httpHandler(route('listTranslationGroups'), ({ caller, query }) => listGroups(caller, query));
