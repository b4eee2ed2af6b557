import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import { DAY_MS } from '../time.ts';
import { DEFAULT_STATS_DAYS, type Stats, type StatsQuery } from './schemas.ts';
import { CHANNEL_STAT_EVENTS, type ChannelStatEvent } from './transitions.ts';

// GET /v1/engagement/stats: the environment's counters of a range of days (counters.ts), one
// Query of its counters partition (a workflow's filtered from it), as rows per day and workflow
// and as each workflow's sums and rates. Rates are stated here once; the console shows them.

type Counts = Record<ChannelStatEvent, number>;

const emptyCounts = (): Counts => Object.fromEntries(CHANNEL_STAT_EVENTS.map((e) => [e, 0])) as Counts;
const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** The range asked for, or the last DEFAULT_STATS_DAYS days (today included); one end given: that many days from it. */
export function rangeOf(query: Pick<StatsQuery, 'from' | 'to'>, now: Date = new Date()): { from: string; to: string } {
  const span = (DEFAULT_STATS_DAYS - 1) * DAY_MS;
  if (query.from && query.to) return { from: query.from, to: query.to };
  if (query.from) return { from: query.from, to: isoDay(Date.parse(`${query.from}T00:00:00Z`) + span) };
  const to = query.to ?? isoDay(now.getTime());
  return { from: isoDay(Date.parse(`${to}T00:00:00Z`) - span), to };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/** A channel's rates: delivered of sent, opened, clicked and read of delivered. */
export const ratesOf = (c: Counts) => ({
  delivery: ratio(c.delivered, c.sent),
  open: ratio(c.opened, c.delivered),
  click: ratio(c.clicked, c.delivered),
  read: ratio(c.read, c.delivered),
});

/** `<channel>#<event>` attributes of a counter item, by channel. */
function channelsOf(item: Record<string, unknown>): Record<string, Counts> {
  const channels: Record<string, Counts> = {};
  for (const [name, value] of Object.entries(item)) {
    const [channel, event] = name.split('#');
    if (!event || typeof value !== 'number' || !(CHANNEL_STAT_EVENTS as readonly string[]).includes(event)) continue;
    (channels[channel!] ??= emptyCounts())[event as ChannelStatEvent] = value;
  }
  return channels;
}

export async function getStats(scope: EnvScope, query: StatsQuery, now: Date = new Date()): Promise<Stats> {
  const { from, to } = rangeOf(query, now);
  const { pk, skFrom, skTo } = keys.engagementCountersOfDays(scope, from, to);
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ...(query.workflowId && { FilterExpression: 'workflowId = :wf' }),
        ExpressionAttributeValues: { ':pk': pk, ':from': skFrom, ':to': skTo, ...(query.workflowId && { ':wf': query.workflowId }) },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);

  const days = items.map((item) => ({
    date: item.day as string,
    workflowId: item.workflowId as string,
    triggered: typeof item.triggered === 'number' ? item.triggered : 0,
    channels: channelsOf(item),
  }));
  const totals = new Map<string, { workflowId: string; triggered: number; channels: Record<string, Counts> }>();
  for (const row of days) {
    const total = totals.get(row.workflowId) ?? { workflowId: row.workflowId, triggered: 0, channels: {} };
    total.triggered += row.triggered;
    for (const [channel, counts] of Object.entries(row.channels)) {
      const sum = (total.channels[channel] ??= emptyCounts());
      for (const event of CHANNEL_STAT_EVENTS) sum[event] += counts[event];
    }
    totals.set(row.workflowId, total);
  }
  const workflows = [...totals.values()]
    .sort((a, b) => (a.workflowId < b.workflowId ? -1 : 1))
    .map((t) => ({ ...t, rates: Object.fromEntries(Object.entries(t.channels).map(([channel, c]) => [channel, ratesOf(c)])) }));
  return { from, to, days, workflows };
}
