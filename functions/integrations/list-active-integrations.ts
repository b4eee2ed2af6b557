import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listActiveIntegrations } from '#lib/integrations/list.ts';

export const handler = httpHandler(route('listActiveIntegrations'), ({ caller }) => listActiveIntegrations(caller));
