import { ENV, optional, positiveNumber } from '../config.ts';

// When each delivery attempt of an event to an endpoint runs, counted from the previous one:
// Svix's schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), so a receiver that is
// down for a day still gets the event. ENV.webhookRetryScheduleSeconds (comma-separated seconds,
// the first attempt's included) replaces it, e.g. for tests that must see the last attempt.

const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

function retrySchedule(): readonly number[] {
  const configured = optional(ENV.webhookRetryScheduleSeconds);
  if (!configured) return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const seconds = configured.split(',').map((s) => Number(s.trim()));
  return seconds.length > 0 && seconds.every((s) => Number.isFinite(s) && s >= 0) ? seconds : DEFAULT_RETRY_SCHEDULE_SECONDS;
}

/** Attempts an event gets (the schedule's length). */
export const maxAttempts = (): number => retrySchedule().length;

/** Seconds to wait before attempt `attempt` (1-based) after the one before it. */
export const delayBeforeAttempt = (attempt: number): number => retrySchedule()[attempt - 1] ?? 0;

/** How long one POST may take before it counts as failed (ms, default 15000, Svix's). */
export const webhookTimeoutMs = (): number => positiveNumber(ENV.webhookTimeoutMs, 15_000);
