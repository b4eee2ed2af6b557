import { ENV, positiveNumber } from '../config.ts';
import { nextCronRun } from '../cron.ts';
import { DAY_MS } from '../time.ts';
import { durationMs, isTimeUnit } from './durations.ts';

// The reference's maximum defer duration: a delay or a digest window may wait at most the
// stage's limit (180 days, its system cap, unless MAX_DEFER_DAYS says otherwise). Waits under a
// day are never checked (nor a limit under a day applied), and a wait equal to the limit is
// allowed. Checked when a workflow is read (a step issue, issues.ts) and when the step runs (the
// job fails with the reference's detail: lib/pipeline/steps/delay.ts, steps/digest.ts).

const DEFAULT_MAX_DEFER_DAYS = 180;
/** Successive cron occurrences a timed step's gaps are checked over, within two years (the reference's walk). */
const CRON_OCCURRENCES = 50;
const CRON_HORIZON_MS = 2 * 365 * DAY_MS;

export const maxDeferMs = (): number => Math.max(1, positiveNumber(ENV.maxDeferDays, DEFAULT_MAX_DEFER_DAYS)) * DAY_MS;

export const exceedsDeferLimit = (waitMs: number): boolean => waitMs >= DAY_MS && waitMs > maxDeferMs();

export const deferLimitMessage = (): string =>
  `The maximum delay allowed is ${Math.floor(maxDeferMs() / DAY_MS)} days. ` +
  'Please contact our support team to discuss extending this limit for your use case.';

/**
 * The controls of a delay or digest step that ask for a longer wait than the limit: `amount` and
 * `unit` of a fixed wait, `cron` of a timed one whose occurrences are further apart. A wait the
 * payload gives (dynamic delays) is known only when the step runs.
 */
export function controlsOverDeferLimit(controls: Record<string, unknown>, now = new Date()): string[] {
  if (controls.type === 'timed') return typeof controls.cron === 'string' && cronGapExceeds(controls.cron, now) ? ['cron'] : [];
  if (controls.type === 'dynamic') return [];
  const { amount, unit } = controls;
  return typeof amount === 'number' && isTimeUnit(unit) && exceedsDeferLimit(durationMs(amount, unit)) ? ['amount', 'unit'] : [];
}

function cronGapExceeds(cron: string, now: Date): boolean {
  try {
    let previous = now;
    for (let i = 0; i < CRON_OCCURRENCES; i++) {
      const next = nextCronRun(cron, previous, 'UTC');
      if (!next || next.getTime() - now.getTime() > CRON_HORIZON_MS) return false;
      if (exceedsDeferLimit(next.getTime() - previous.getTime())) return true;
      previous = next;
    }
  } catch {
    // An invalid expression is refused when the workflow is saved.
  }
  return false;
}
