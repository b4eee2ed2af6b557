import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeCallError, type BridgeAnswer } from './call-result.ts';
import { ENV, positiveNumber } from '../config.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { sendMessages } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { getAnswer } from './outbound-answer-store.ts';
import type { OutboundRequest } from './outbound-request.ts';

// The API side of an outbound call (outbound-request.ts): the request goes on the `outbound` queue, and
// the handler polls for its answer until a bound well inside API Gateway's 29 s (the route
// functions that ask run for 25 s). The bridge's own answer comes back as callBridge would have
// given it (a BridgeCallError for an error), so the callers' handling does not change; no answer
// in time is a 504 of its own.

const DEFAULT_WAIT_MS = 20_000;
/** What the consumer may spend on the call: the wait less room for the queue and the write. */
const QUEUE_ROOM_MS = 3_000;
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 250;

export const answerWaitMs = () => positiveNumber(ENV.outboundAnswerWaitMs, DEFAULT_WAIT_MS, DEFAULT_WAIT_MS);

/** Makes the bridge call through the outbound consumer and awaits its answer. */
export async function askBridge(scope: EnvScope, bridge: OutboundRequest['bridge']): Promise<BridgeAnswer> {
  const started = Date.now();
  const waitMs = answerWaitMs();
  const requestId = newId();
  const request: OutboundRequest = {
    requestId,
    organizationId: scope.organizationId,
    environmentId: scope.environmentId,
    answerBy: started + Math.max(waitMs - QUEUE_ROOM_MS, waitMs / 2),
    bridge,
  };
  await sendMessages('outbound', [{ body: request }]);
  for (let pause = FIRST_POLL_MS; Date.now() - started < waitMs; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    await sleep(Math.min(pause, Math.max(0, started + waitMs - Date.now())));
    const outcome = await getAnswer(scope, requestId);
    if (!outcome) continue;
    const durationMs = Date.now() - started;
    if (outcome.ok) return { status: outcome.status, body: outcome.body, durationMs, attempts: 1 };
    const { message, ok: _ok, ...rest } = outcome;
    throw new BridgeCallError(message, { ...rest, durationMs, attempts: 1 });
  }
  throw new AppError(504, `The bridge call was not answered within ${Math.round(waitMs / 1000)} s: its queue's consumer did not reply`);
}
