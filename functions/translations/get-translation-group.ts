import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { readGroup } from '#lib/translations/read.ts';

export const handler = httpHandler(route('getTranslationGroup'), ({ caller, params }) =>
  readGroup(caller, params.resourceType, params.resourceId),
);
