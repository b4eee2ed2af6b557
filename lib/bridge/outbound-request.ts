import type { BridgeAction } from './call-result.ts';
import { isId } from '../queue/parse-message.ts';

// A call to a customer's URL whose answer an API handler needs (the CLI's sync waits for its
// bridge's discover): the message the handler puts on the `outbound` queue for the outbound
// consumer, which makes the call through the address guard and writes the answer where the
// handler waits for it (outbound-answer-store.ts). The API never calls a customer's URL itself.

export interface OutboundRequest {
  requestId: string;
  organizationId: string;
  environmentId: string;
  /** Epoch ms after which no one waits for the answer: a request read later is not called. */
  answerBy: number;
  /** A call to a bridge; signed with the environment's key, which the consumer opens itself (no secret travels in the message). */
  bridge: {
    url: string;
    action: BridgeAction;
    signed: boolean;
    query?: Record<string, string | undefined>;
    body?: Record<string, unknown>;
    attempts?: number;
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function isOutboundRequest(m: Record<string, unknown>): boolean {
  const bridge = m.bridge;
  return (
    isId(m.requestId) &&
    isId(m.organizationId) &&
    isId(m.environmentId) &&
    typeof m.answerBy === 'number' &&
    isObject(bridge) &&
    typeof bridge.url === 'string' &&
    typeof bridge.action === 'string' &&
    typeof bridge.signed === 'boolean' &&
    (bridge.query === undefined || isObject(bridge.query)) &&
    (bridge.body === undefined || isObject(bridge.body))
  );
}
