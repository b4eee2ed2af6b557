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

/** One day of the chart: the range's days, each summed over the workflows shown and their channels (or one of them). */
export interface DayTotals extends Counts {
  date: string;
  /** Runs of the workflows shown; counted per workflow, not per channel (0 when one channel is picked). */
  triggered: number;
}

const DAY_MS = 86_400_000;

/**
 * Every day from `from` to `to`, days without counts as zeros; with `channel`, only that
 * channel's counts (emails apart from in-app messages), without the workflows' triggers.
 */
export function dayTotals(stats: Stats, channel?: string): DayTotals[] {
  const byDate = new Map<string, DayTotals>();
  for (let t = Date.parse(`${stats.from}T00:00:00Z`); t <= Date.parse(`${stats.to}T00:00:00Z`); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    byDate.set(date, { date, triggered: 0, sent: 0, delivered: 0, failed: 0, opened: 0, clicked: 0, read: 0 });
  }
  for (const row of stats.days) {
    const total = byDate.get(row.date);
    if (!total) continue;
    if (!channel) total.triggered += row.triggered;
    for (const [name, counts] of Object.entries(row.channels)) {
      if (channel && name !== channel) continue;
      for (const event of EVENTS) total[event] += counts[event];
    }
  }
  return [...byDate.values()];
}

/** Whether a day counted anything at all (a day of clicks alone too). */
export const countedAny = (day: DayTotals): boolean => day.triggered > 0 || EVENTS.some((event) => day[event] > 0);

/** The channels the range counted anything on, in a stable order. */
export const channelsOf = (stats: Stats): string[] => [...new Set(stats.workflows.flatMap((w) => Object.keys(w.channels)))].sort();
