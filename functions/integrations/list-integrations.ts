import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listIntegrations } from '#lib/integrations/list.ts';

export const handler = httpHandler(route('listIntegrations'), ({ caller }) => listIntegrations(caller));
