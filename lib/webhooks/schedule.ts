import { positiveNumber } from '../config.ts';

// When each delivery attempt of an event to an endpoint runs, counted from the previous one:
// Svix's schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), so a receiver that is
// down for a day still gets the event. WEBHOOK_RETRY_SCHEDULE_SECONDS (comma-separated seconds,
// the first attempt's included) replaces it, e.g. for tests that must see the last attempt.

export const RETRY_SCHEDULE_ENV = 'WEBHOOK_RETRY_SCHEDULE_SECONDS';
/** How long one POST may take before it counts as failed (ms, default 15000, Svix's). */
export const WEBHOOK_TIMEOUT_ENV = 'WEBHOOK_TIMEOUT_MS';

const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

function retrySchedule(): readonly number[] {
  const configured = process.env[RETRY_SCHEDULE_ENV];
  if (!configured) return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const seconds = configured.split(',').map((s) => Number(s.trim()));
  return seconds.length > 0 && seconds.every((s) => Number.isFinite(s) && s >= 0) ? seconds : DEFAULT_RETRY_SCHEDULE_SECONDS;
}

/** Attempts an event gets (the schedule's length). */
export const maxAttempts = (): number => retrySchedule().length;

/** Seconds to wait before attempt `attempt` (1-based) after the one before it. */
export const delayBeforeAttempt = (attempt: number): number => retrySchedule()[attempt - 1] ?? 0;

export const webhookTimeoutMs = (): number => positiveNumber(WEBHOOK_TIMEOUT_ENV, 15_000);
