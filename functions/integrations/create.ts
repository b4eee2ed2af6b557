import { route } from '#infra/routes/integrations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createIntegration } from '#lib/integrations/create.ts';

export const handler = idempotentHttpHandler(route('createIntegration'), ({ caller, body }) => createIntegration(caller, body));
