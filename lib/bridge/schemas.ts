import * as z from '../zod.ts';
import { workflowResponseSchema } from '../workflows/schemas.ts';
import { bridgeUrl } from './url.ts';

// Requests and answers of the bridge routes (/v1/bridge/*): what `npx novu sync` and the
// reference's dashboard send. A `workflows` field in a sync body is ignored, as the reference
// ignores it: the workflows are what the bridge's discover answers.

export const syncBridgeBody = z.object({ bridgeUrl });
export const syncBridgeQuery = z.object({ source: z.optional(z.string().check(z.maxLength(64))) });

export const syncBridgeResponse = z.array(workflowResponseSchema).register(z.globalRegistry, { id: 'BridgeSyncResult' });

export const bridgeDiffResponse = z
  .object({
    current: z.object({ workflows: z.array(z.string()), bridgeUrl: z.nullable(z.string()) }),
    new: z.object({ workflows: z.array(z.string()), bridgeUrl: z.string() }),
    created: z.array(z.string()),
    updated: z.array(z.string()),
    deleted: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'BridgeDiff' });
export type BridgeDiff = z.infer<typeof bridgeDiffResponse>;

export const validateBridgeResponse = z
  .object({ isValid: z.boolean(), error: z.optional(z.string()) })
  .register(z.globalRegistry, { id: 'BridgeValidation' });

export const bridgeStatusResponse = z
  .object({
    status: z.string(),
    sdkVersion: z.optional(z.string()),
    frameworkVersion: z.optional(z.string()),
    discovered: z.optional(z.object({ workflows: z.number(), steps: z.number() })),
  })
  .register(z.globalRegistry, { id: 'BridgeStatus' });

export const stepControlsParams = z.object({
  workflowId: z.string().check(z.minLength(1), z.maxLength(512)),
  stepId: z.string().check(z.minLength(1), z.maxLength(512)),
});
/** The reference's body: the values under `variables`. */
export const stepControlsBody = z.object({ variables: z.record(z.string(), z.unknown(), { error: 'variables must be an object' }) });
