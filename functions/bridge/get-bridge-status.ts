import { route } from '#infra/routes/bridge.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { bridgeStatus } from '#lib/bridge/health.ts';

export const handler = httpHandler(route('getBridgeStatus'), ({ caller }) => bridgeStatus(caller));
