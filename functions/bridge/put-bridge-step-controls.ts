import { route } from '#infra/routes/bridge.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { storeStepControls } from '#lib/bridge/controls.ts';

export const handler = httpHandler(route('putBridgeStepControls'), ({ caller, params, body }) =>
  storeStepControls(caller, params.workflowId, params.stepId, body.variables),
);
