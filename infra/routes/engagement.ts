import { statsQuery, statsSchema } from '#lib/engagement/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Engagement numbers over time (docs/engagement.md, "Numbers over time"): the service's own; the
// reference has no such route.

export const engagementRoutes = [
  {
    operationId: 'getEngagementStats',
    method: 'GET',
    path: '/v1/engagement/stats',
    handler: 'functions/engagement/stats.ts',
    summary: 'Count triggers, sends, deliveries, failures, opens, clicks and reads per day, workflow and channel (last 30 days by default)',
    tag: 'Engagement',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: statsQuery },
    response: statsSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(engagementRoutes);
