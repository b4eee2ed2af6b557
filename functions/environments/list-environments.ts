import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listMyEnvironments } from '#lib/accounts/list-environments.ts';

export const handler = httpHandler(route('listEnvironments'), ({ caller }) => listMyEnvironments(caller));
