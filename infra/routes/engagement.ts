import { statsQuery, statsSchema, trackingTokenParams } from '#lib/engagement/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Link and open tracking (docs/engagement.md): where the tracked links and the open pixel of a
// sent message lead. No API key: the recipient's mail client or browser calls them, and the
// token (sealed, lib/engagement/token.ts) is the only credential; they answer a redirect, an
// image or a plain 404 page, never JSON. Part of the route table (infra/routes.ts); handlers in
// functions/engagement/.
//
// Engagement numbers over time (docs/engagement.md, "Numbers over time"): the service's own; the
// reference has no such route.

export const engagementRoutes = [
  {
    operationId: 'followTrackedLink',
    method: 'GET',
    path: '/t/{token}',
    handler: 'functions/engagement/follow-tracked-link.ts',
    summary: "A tracked link of a message: counts the click and redirects (302) to the link's original URL; 404 page if not valid",
    tag: 'Engagement',
    auth: 'none',
    access: 'write',
    successStatus: 302,
    request: { params: trackingTokenParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'loadOpenPixel',
    method: 'GET',
    path: '/o/{token}',
    handler: 'functions/engagement/load-open-pixel.ts',
    summary: "An email's open pixel: records the first open and answers a transparent 1×1 GIF",
    tag: 'Engagement',
    auth: 'none',
    access: 'write',
    successStatus: 200,
    request: { params: trackingTokenParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getEngagementStats',
    method: 'GET',
    path: '/v1/engagement/stats',
    handler: 'functions/engagement/get-engagement-stats.ts',
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
