import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listV1Workflows } from '#lib/workflows/v1-read.ts';

export const handler = httpHandler(route('listNotificationTemplates'), ({ caller, query }) => listV1Workflows(caller, query));
