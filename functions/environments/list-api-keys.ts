import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listApiKeys } from '#lib/accounts/api-keys.ts';

export const handler = httpHandler(route('listApiKeys'), ({ caller }) => listApiKeys(caller));
