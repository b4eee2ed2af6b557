import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeGroup } from '#lib/translations/remove.ts';

export const handler = httpHandler(route('deleteTranslationGroup'), ({ caller, params }) =>
  removeGroup(caller, params.resourceType, params.resourceId),
);
