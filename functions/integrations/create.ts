import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { createIntegration } from '#lib/integrations/create.ts';

export const handler = httpHandler(route('createIntegration'), ({ caller, body }) => createIntegration(caller, body));
