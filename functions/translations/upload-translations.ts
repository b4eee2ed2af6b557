import { route } from '#infra/routes/translations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { uploadTranslations } from '#lib/translations/upload.ts';

export const handler = idempotentHttpHandler(route('uploadTranslations'), ({ caller, body }) => uploadTranslations(caller, body));
