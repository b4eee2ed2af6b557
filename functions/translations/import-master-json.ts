import { route } from '#infra/routes/translations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { importMasterJson } from '#lib/translations/master-json.ts';

export const handler = idempotentHttpHandler(route('importMasterJson'), ({ caller, body }) => importMasterJson(caller, body));
