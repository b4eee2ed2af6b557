import { route } from '#infra/routes/bridge.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { syncBridge } from '#lib/bridge/sync.ts';

export const handler = idempotentHttpHandler(route('syncBridge'), ({ caller, body }) => syncBridge(caller, body.bridgeUrl));
