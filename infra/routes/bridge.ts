import {
  bridgeDiffResponse,
  bridgeStatusResponse,
  stepControlsBody,
  stepControlsParams,
  syncBridgeBody,
  syncBridgeQuery,
  syncBridgeResponse,
  validateBridgeResponse,
} from '#lib/bridge/schemas.ts';
import { stepResponseSchema } from '#lib/workflows/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Code-first workflows (/v1/bridge): what `npx novu sync` calls, at the reference's paths and in
// its `{data}` envelope (docs/code-first.md). The routes that reach the bridge send the call to
// the `outbound` queue and wait for its answer (lib/bridge/outbound-*.ts): the API never calls a bridge
// itself. Part of the route table (infra/routes.ts); the handlers in functions/bridge/ take
// their entry from here.

export const bridgeRoutes = inRateLimitCategory('configuration', [
  {
    operationId: 'syncBridge',
    method: 'POST',
    path: '/v1/bridge/sync',
    handler: 'functions/bridge/sync-bridge.ts',
    summary: "Create, update and delete the environment's code-first workflows from its bridge's discover, and store the bridge URL",
    tag: 'Bridge',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { query: syncBridgeQuery, body: syncBridgeBody },
    response: syncBridgeResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['outbound'],
  },
  {
    operationId: 'diffBridge',
    method: 'POST',
    path: '/v1/bridge/diff',
    handler: 'functions/bridge/diff-bridge.ts',
    summary: 'What a sync from this bridge would create, update and delete (nothing is written)',
    tag: 'Bridge',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { body: syncBridgeBody },
    response: bridgeDiffResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['outbound'],
    access: 'read',
  },
  {
    operationId: 'validateBridge',
    method: 'POST',
    path: '/v1/bridge/validate',
    handler: 'functions/bridge/validate-bridge.ts',
    summary: "Whether a bridge URL answers the framework's health check",
    tag: 'Bridge',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { body: syncBridgeBody },
    response: validateBridgeResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['outbound'],
    access: 'read',
  },
  {
    operationId: 'getBridgeStatus',
    method: 'GET',
    path: '/v1/bridge/status',
    handler: 'functions/bridge/get-bridge-status.ts',
    summary: "The health check of the environment's stored bridge",
    tag: 'Bridge',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: bridgeStatusResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['outbound'],
  },
  {
    operationId: 'putBridgeStepControls',
    method: 'PUT',
    path: '/v1/bridge/controls/{workflowId}/{stepId}',
    handler: 'functions/bridge/put-bridge-step-controls.ts',
    summary: "Set the control values of a code-first step (checked against its code's control schema), sent with its next execution",
    tag: 'Bridge',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: stepControlsParams, body: stepControlsBody },
    response: stepResponseSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(bridgeRoutes);
