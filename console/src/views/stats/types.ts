// The answer of GET /v1/engagement/stats (lib/engagement/schemas.ts), as the console reads it.

export const EVENTS = ['sent', 'delivered', 'failed', 'opened', 'clicked', 'read'] as const;
export type Event = (typeof EVENTS)[number];
export type Counts = Record<Event, number>;
export type Rates = { delivery: number | null; open: number | null; click: number | null; read: number | null };

export interface StatsDay {
  date: string;
  workflowId: string;
  triggered: number;
  channels: Record<string, Counts>;
}

export interface StatsWorkflow {
  workflowId: string;
  triggered: number;
  channels: Record<string, Counts>;
  rates: Record<string, Rates>;
}

export interface Stats {
  from: string;
  to: string;
  days: StatsDay[];
  workflows: StatsWorkflow[];
}

/** One day of the chart: the range's days, each summed over the workflows shown and their channels. */
export interface DayTotals extends Counts {
  date: string;
  triggered: number;
}

const DAY_MS = 86_400_000;

/** Every day from `from` to `to`, days without counts as zeros. */
export function dayTotals(stats: Stats): DayTotals[] {
  const byDate = new Map<string, DayTotals>();
  for (let t = Date.parse(`${stats.from}T00:00:00Z`); t <= Date.parse(`${stats.to}T00:00:00Z`); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    byDate.set(date, { date, triggered: 0, sent: 0, delivered: 0, failed: 0, opened: 0, clicked: 0, read: 0 });
  }
  for (const row of stats.days) {
    const total = byDate.get(row.date);
    if (!total) continue;
    total.triggered += row.triggered;
    for (const counts of Object.values(row.channels)) for (const event of EVENTS) total[event] += counts[event];
  }
  return [...byDate.values()];
}
