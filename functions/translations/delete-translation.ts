import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeTranslation } from '#lib/translations/remove.ts';

export const handler = httpHandler(route('deleteTranslation'), ({ caller, params }) =>
  removeTranslation(caller, params.resourceType, params.resourceId, params.locale),
);
