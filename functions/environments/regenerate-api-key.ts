import { route } from '#infra/routes/environments.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { regenerateApiKey } from '#lib/accounts/api-keys.ts';

// With an idempotency key a retried call answers the same new key (the stored answer is sealed)
// instead of replacing it again.
export const handler = idempotentHttpHandler(route('regenerateApiKey'), ({ caller }) => regenerateApiKey(caller));
