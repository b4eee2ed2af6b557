import { BridgeCallError } from './call-result.ts';
import { callBridge } from './client.ts';
import { signingKey } from './environment.ts';
import { logger } from '../logger.ts';
import { parse } from '../queue/parse-message.ts';
import type { EnvScope } from '../scope.ts';
import { getAnswer, putAnswer, type OutboundOutcome } from './outbound-answer-store.ts';
import { isOutboundRequest, type OutboundRequest } from './outbound-request.ts';

// The outbound consumer's work for one message (outbound-request.ts): the call, through the address guard
// (client.ts, lib/net), inside the time its waiter has left, and its answer written
// for the waiter. A request already answered (a redelivery) or no longer awaited is not called
// again. Only the call's own failures are answers; anything else fails the message, to be retried.

export async function answerOutboundRequest(body: string): Promise<void> {
  const request = parse<OutboundRequest>(body, isOutboundRequest);
  if (!request) return;
  const scope: EnvScope = { organizationId: request.organizationId, environmentId: request.environmentId };
  const budgetMs = request.answerBy - Date.now();
  if (budgetMs <= 0) {
    logger.info('Outbound call not made: no one waits for its answer any more', { requestId: request.requestId });
    return;
  }
  if (await getAnswer(scope, request.requestId)) return;
  await putAnswer(scope, request.requestId, await callOf(scope, request.bridge, budgetMs));
}

async function callOf(scope: EnvScope, bridge: OutboundRequest['bridge'], budgetMs: number): Promise<OutboundOutcome> {
  try {
    const answer = await callBridge({
      url: bridge.url,
      action: bridge.action,
      ...(bridge.signed && { secretKey: await signingKey(scope) }),
      ...(bridge.query && { query: bridge.query }),
      ...(bridge.body && { body: bridge.body }),
      ...(bridge.attempts !== undefined && { attempts: bridge.attempts }),
      budgetMs,
    });
    return { ok: true, status: answer.status, body: answer.body };
  } catch (error) {
    if (!(error instanceof BridgeCallError)) throw error;
    const { status, code, data } = error.outcome;
    return {
      ok: false,
      message: error.message,
      ...(status !== undefined && { status }),
      ...(code !== undefined && { code }),
      ...(data !== undefined && { data }),
    };
  }
}
