import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { revokeApiKey } from '#lib/accounts/api-keys.ts';

export const handler = httpHandler(route('revokeApiKey'), ({ caller, params }) => revokeApiKey(caller, params.hash));
