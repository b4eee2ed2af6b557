import { route } from '#infra/routes/translations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { uploadMasterJson } from '#lib/translations/upload.ts';

export const handler = idempotentHttpHandler(route('uploadMasterJson'), ({ caller, body }) => uploadMasterJson(caller, body));
