import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getCurrentEnvironment } from '#lib/accounts/current-environment.ts';

export const handler = httpHandler(route('getCurrentEnvironment'), ({ caller }) => getCurrentEnvironment(caller));
