import { route } from '#infra/routes/bridge.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { diffBridge } from '#lib/bridge/sync.ts';

export const handler = idempotentHttpHandler(route('diffBridge'), ({ caller, body }) => diffBridge(caller, body.bridgeUrl));
