import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { readTranslation } from '#lib/translations/read.ts';

export const handler = httpHandler(route('getTranslation'), ({ caller, params }) =>
  readTranslation(caller, params.resourceType, params.resourceId, params.locale),
);
