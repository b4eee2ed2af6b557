import * as z from '../zod.ts';
import { CHANNEL_STAT_EVENTS } from './transitions.ts';

// The query and answer of GET /v1/engagement/stats (ours: the reference has no numbers over time).

/** The longest range one request reads (days, both ends included). */
export const MAX_STATS_DAYS = 92;
/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_STATS_DAYS = 30;

const day = (field: string) =>
  z.string().check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (yyyy-mm-dd)`),
    z.refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${field} must be a real date`,
    ),
  );

export const statsQuery = z
  .object({
    from: z.optional(day('from')),
    to: z.optional(day('to')),
    workflowId: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  })
  .check(
    z.refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] }),
    z.refine((q) => !q.from || !q.to || spanDays(q.from, q.to) <= MAX_STATS_DAYS, {
      message: `the range must be at most ${MAX_STATS_DAYS} days`,
      path: ['to'],
    }),
  );
export type StatsQuery = z.infer<typeof statsQuery>;

/** Days from `from` to `to`, both included. */
export const spanDays = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

const counts = z.object(
  Object.fromEntries(CHANNEL_STAT_EVENTS.map((e) => [e, z.number()])) as Record<(typeof CHANNEL_STAT_EVENTS)[number], z.ZodMiniNumber>,
);
const channels = z.record(z.string(), counts);

const rates = z
  .object({
    /** delivered / sent */
    delivery: z.nullable(z.number()),
    /** opened / delivered */
    open: z.nullable(z.number()),
    /** clicked / delivered */
    click: z.nullable(z.number()),
    /** read / delivered */
    read: z.nullable(z.number()),
  })
  .register(z.globalRegistry, { id: 'EngagementRates' });

export const statsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    /** One row per day and workflow that counted anything, oldest first. */
    days: z.array(z.object({ date: z.string(), workflowId: z.string(), triggered: z.number(), channels })),
    /** Each workflow's sums over the range, with each channel's rates (null where nothing was sent or delivered). */
    workflows: z.array(z.object({ workflowId: z.string(), triggered: z.number(), channels, rates: z.record(z.string(), rates) })),
  })
  .register(z.globalRegistry, { id: 'EngagementStats' });
export type Stats = z.infer<typeof statsSchema>;

// The public tracking routes take one path parameter, the token; any text is accepted here and a
// token that does not open is answered by the route's plain 404 page (lib/http/pages.ts).
export const trackingTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(4096)) });
