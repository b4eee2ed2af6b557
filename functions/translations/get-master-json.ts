import { route } from '#infra/routes/translations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { exportMasterJson } from '#lib/translations/master-json.ts';

export const handler = httpHandler(route('getMasterJson'), ({ caller, query }) => exportMasterJson(caller, query.locale));
