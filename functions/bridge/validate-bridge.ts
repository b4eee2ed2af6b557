import { route } from '#infra/routes/bridge.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { validateBridgeUrl } from '#lib/bridge/health.ts';

export const handler = idempotentHttpHandler(route('validateBridge'), ({ caller, body }) => validateBridgeUrl(caller, body.bridgeUrl));
