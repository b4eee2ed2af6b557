import { route } from '#infra/routes/layouts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listLayoutsPage } from '#lib/layouts/list.ts';

export const handler = httpHandler(route('listLayouts'), ({ caller, query }) => listLayoutsPage(caller, query));
