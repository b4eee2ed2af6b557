import { setTimeout as sleep } from 'node:timers/promises';
import { ENV, positiveNumber } from '../config.ts';
import { guardedRequest } from '../net/guarded-request.ts';
import { BridgeCallError, type BridgeAction, type BridgeAnswer } from './call-result.ts';
import { bridgeSignature } from './signature.ts';

// One call to a customer's bridge (an app serving @novu/framework): signed, through the outbound
// address guard (lib/net), 5 s per attempt, and tried again with a doubling wait on 408, 429, 5xx
// and connection errors, every attempt inside one time budget (a job's call must end well inside
// the send lease and the queue's visibility timeout). Any other answer of 400 or more is the
// bridge's word and is not tried again. A bridge call has no effect of its own, so repeating one
// (a retry, a redelivered job) is harmless.

export const BRIDGE_TIMEOUT_MS = 5_000;
const MAX_ATTEMPTS = 3;
/** Every attempt and wait of one call ends within this. */
const BUDGET_MS = 25_000;
/** Answers are JSON of a step's output: a generous bound. */
const MAX_ANSWER_BYTES = 2 << 20;
const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504, 521, 522, 524]);

export interface BridgeCall {
  url: string;
  action: BridgeAction;
  /** Signs the call; a health check is not signed (the framework does not check it). */
  secretKey?: string;
  /** Further query parameters (workflowId, stepId, jobId, environmentType). */
  query?: Record<string, string | undefined>;
  /** POST actions: the JSON body. */
  body?: Record<string, unknown>;
  /** At most this many attempts (default 3; the API's own calls, whose caller waits, make fewer). */
  attempts?: number;
  /** Every attempt and wait ends within this (default 25 s; less when someone waits for the answer). */
  budgetMs?: number;
}

export function bridgeUrlOf(call: Pick<BridgeCall, 'url' | 'action' | 'query'>): URL {
  const url = new URL(call.url);
  url.searchParams.set('action', call.action);
  for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

const backoffMs = () => positiveNumber(ENV.bridgeBackoffMs, 1_000);

export async function callBridge(call: BridgeCall): Promise<BridgeAnswer> {
  const started = Date.now();
  const until = started + Math.min(call.budgetMs ?? BUDGET_MS, BUDGET_MS);
  const method = call.body === undefined ? 'GET' : 'POST';
  const text = call.body === undefined ? undefined : JSON.stringify(call.body);
  const url = bridgeUrlOf(call);
  for (let attempt = 1; ; attempt++) {
    const timeoutMs = Math.min(BRIDGE_TIMEOUT_MS, until - Date.now());
    const headers: Record<string, string> = {
      accept: 'application/json',
      'bypass-tunnel-reminder': 'true',
      ...(text !== undefined && { 'content-type': 'application/json' }),
      ...(call.secretKey !== undefined && { 'novu-signature': bridgeSignature(call.secretKey, call.body ?? {}) }),
    };
    let failure: BridgeCallError;
    try {
      const answer = await guardedRequest(url, { method, headers, body: text, timeoutMs, maxBytes: MAX_ANSWER_BYTES });
      const body = parseJson(answer.text);
      const durationMs = Date.now() - started;
      if (answer.status < 400) return { status: answer.status, body, durationMs, attempts: attempt };
      const said = (body ?? {}) as { message?: unknown; code?: unknown; data?: unknown };
      failure = new BridgeCallError(typeof said.message === 'string' ? said.message : `The bridge answered ${answer.status}`, {
        status: answer.status,
        ...(typeof said.code === 'string' && { code: said.code }),
        ...(said.data !== undefined && { data: said.data }),
        durationMs,
        attempts: attempt,
      });
      if (!RETRIED_STATUSES.has(answer.status)) throw failure;
    } catch (error) {
      if (error instanceof BridgeCallError && !RETRIED_STATUSES.has(error.outcome.status ?? 0)) throw error;
      failure =
        error instanceof BridgeCallError
          ? error
          : new BridgeCallError(`The bridge could not be reached: ${(error as Error).message}`, {
              ...((error as { code?: string }).code !== undefined && { code: (error as { code?: string }).code }),
              durationMs: Date.now() - started,
              attempts: attempt,
            });
      // A refused address is the guard's answer, not the network's: trying again changes nothing.
      if ((error as { code?: string }).code === 'EFORBIDDENADDRESS') throw failure;
    }
    const wait = backoffMs() * 2 ** (attempt - 1);
    if (attempt >= (call.attempts ?? MAX_ATTEMPTS) || Date.now() + wait + 500 >= until) throw failure;
    await sleep(wait);
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
