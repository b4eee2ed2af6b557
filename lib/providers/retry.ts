import { setTimeout as sleep } from 'node:timers/promises';
import { ENV, positiveNumber } from '../config.ts';
import { ProviderError } from './provider.ts';

// Transient provider failures (timeouts, connection errors, 5xx, 429) are tried again, a bounded
// number of times with a doubling wait, inside one time budget: the job runner holds the job
// under a 60 s lease while the send runs, so a send with all its retries must end well before.
// What is not transient (4xx, a refused address) fails at once.

export const MAX_ATTEMPTS = 3;
/** All attempts and waits of one send end within this. */
export const SEND_BUDGET_MS = 30_000;
/** A provider asking to wait longer than this (Retry-After) is not waited for. */
const MAX_WAIT_MS = 5_000;

export const attemptTimeoutMs = (): number => positiveNumber(ENV.providerTimeoutMs, 10_000);
const backoffMs = (): number => positiveNumber(ENV.providerBackoffMs, 500);

/** Thrown by an attempt whose failure is worth another try; `failure` is what the caller gets in the end. */
export class TransientError extends Error {
  constructor(
    readonly failure: ProviderError,
    readonly retryAfterMs?: number,
  ) {
    super(failure.message);
    this.name = 'TransientError';
  }
}

export interface RetryOptions {
  /** Epoch ms by which the last attempt must have ended (default: now + SEND_BUDGET_MS). */
  until?: number;
}

/**
 * Runs `attempt` (given the time it may take) until it succeeds, throws something other than a
 * TransientError, or the attempts or the budget run out; then the last failure is thrown.
 */
export async function withRetries<T>(attempt: (timeoutMs: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const until = options.until ?? Date.now() + SEND_BUDGET_MS;
  for (let n = 1; ; n++) {
    const timeoutMs = Math.min(attemptTimeoutMs(), until - Date.now());
    if (timeoutMs <= 0) throw new ProviderError('No time left to call the provider', { attempts: n - 1 });
    try {
      return await attempt(timeoutMs);
    } catch (error) {
      if (!(error instanceof TransientError)) throw error;
      // Full jitter on the doubling wait, so many jobs failing together do not retry together.
      const wait = error.retryAfterMs ?? backoffMs() * 2 ** (n - 1) * (0.5 + Math.random() / 2);
      if (n >= MAX_ATTEMPTS || wait > MAX_WAIT_MS || Date.now() + wait + 100 >= until) {
        throw new ProviderError(error.failure.message, { ...asObject(error.failure.raw), attempts: n }, true);
      }
      await sleep(wait);
    }
  }
}

const asObject = (raw: unknown): Record<string, unknown> =>
  raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { answer: raw };

/** A Retry-After header (seconds or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
