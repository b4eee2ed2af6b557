import { route } from '#infra/routes/translations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { upsertTranslation } from '#lib/translations/upsert.ts';

export const handler = idempotentHttpHandler(route('upsertTranslation'), ({ caller, body }) => upsertTranslation(caller, body));
