import * as z from '#lib/zod.ts';
import {
  broadcastEventBody,
  bulkTriggerBody,
  bulkTriggerResponseSchema,
  triggerEventBody,
  triggerEventResponseSchema,
} from '#lib/events/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT, TRIGGER_BODY_LIMIT, BULK_TRIGGER_BODY_LIMIT } from './body-limits.ts';

// Triggers and their cancel (/v1/events). Part of the route table (infra/routes.ts); the handlers in
// functions/events/ take their entry from here, so their bundles hold only this area's schemas.
// Trigger, broadcast and cancel answer in the reference's `{data}` envelope (what `@novu/node` apps
// read); the bulk trigger is one of the interface's endpoints and is not wrapped (docs/differences.md).

export const eventRoutes = inRateLimitCategory('trigger', [
  {
    operationId: 'trigger',
    method: 'POST',
    path: '/v1/events/trigger',
    handler: 'functions/events/trigger.ts',
    summary: 'Trigger a workflow for one or more recipients',
    tag: 'Events',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { body: triggerEventBody },
    response: triggerEventResponseSchema,
    maxBodyBytes: TRIGGER_BODY_LIMIT,
    sends: ['events'],
  },
  {
    operationId: 'triggerBulk',
    method: 'POST',
    path: '/v1/events/trigger/bulk',
    handler: 'functions/events/trigger-bulk.ts',
    summary: 'Trigger up to 100 events at once; one result per event, in order',
    tag: 'Events',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: bulkTriggerBody },
    response: bulkTriggerResponseSchema,
    maxBodyBytes: BULK_TRIGGER_BODY_LIMIT,
    rateLimitCost: 'bulk',
    sends: ['bulk'],
  },
  {
    operationId: 'triggerBroadcast',
    method: 'POST',
    path: '/v1/events/trigger/broadcast',
    handler: 'functions/events/trigger-broadcast.ts',
    summary: 'Trigger a workflow for every subscriber of the environment',
    tag: 'Events',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { body: broadcastEventBody },
    response: triggerEventResponseSchema,
    maxBodyBytes: TRIGGER_BODY_LIMIT,
    rateLimitCost: 'bulk',
    sends: ['bulk'],
  },
  {
    operationId: 'cancelTrigger',
    method: 'DELETE',
    path: '/v1/events/trigger/{transactionId}',
    handler: 'functions/events/cancel-trigger.ts',
    summary: 'Cancel the jobs of a transaction that have not run yet (delays, digests, pending steps)',
    tag: 'Events',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: z.object({ transactionId: z.string().check(z.minLength(1), z.maxLength(256)) }) },
    response: z.boolean(),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(eventRoutes);
