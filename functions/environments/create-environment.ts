import { route } from '#infra/routes/environments.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createEnvironment } from '#lib/accounts/create-environment.ts';

// With an idempotency key a retried call answers the same environment and key (the stored answer
// is sealed) instead of being refused for its name.
export const handler = idempotentHttpHandler(route('createEnvironment'), ({ caller, body }) => createEnvironment(caller, body));
