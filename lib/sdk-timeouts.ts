import { ENV, positiveNumber } from './config.ts';

// Bounds on every request to the service's own AWS dependencies (the table, the queues, the
// sockets' management API, the wake schedules). The SDK sets none: a connection that stops
// answering (a half-open socket, an overloaded emulator) would hold the call, and the socket it
// occupies, until the function times out. With these the SDK gives up on that attempt (a
// TimeoutError, which its retry strategy treats as transient) and tries again on another
// connection.
//
// In the @smithy/node-http-handler this SDK uses (4.14), `requestTimeout` alone only logs a
// warning (it used to be a socket's idle timeout): `throwOnRequestTimeout` makes it the bound on
// an attempt's whole request and response.
//
// In AWS each function's attempts must fit in its own timeout, with time left to answer: the stack
// sets ENV.sdkAttemptTimeoutMs per function from its timeout (`sdkAttemptTimeoutMs`). The local
// runtime runs every handler in one process on shared clients, against an emulator that can take
// seconds on a loaded laptop, so it keeps the generous default; its long polls (10 s) fit inside.

/** An attempt's bound where nothing narrower is set: the local runtime, tests, the bench. */
const DEFAULT_ATTEMPT_MS = 20_000;
/** Establishing a connection: never longer than an attempt. */
const CONNECT_MS = 5_000;
/**
 * Attempts per call, stated rather than left to the SDK, whose default differs by service and
 * version (DynamoDB's is 4 in this one, SQS's 3): the bound on an attempt is derived from it.
 */
export const SDK_ATTEMPTS = 4;
/** Left of a function's timeout after its attempts: the retries' backoff (50, 100, 200 ms), and answering. */
const ANSWER_RESERVE_MS = 1_000;

/**
 * The bound on one attempt for a function that runs `functionTimeoutSeconds`: its attempts one
 * after another, and the reserve, fit inside; never above the default.
 */
export const sdkAttemptTimeoutMs = (functionTimeoutSeconds: number): number =>
  Math.min(DEFAULT_ATTEMPT_MS, Math.floor((functionTimeoutSeconds * 1000 - ANSWER_RESERVE_MS) / SDK_ATTEMPTS));

/** The attempts and their bounds of every client the service and its local runtime make (read when a client is made). */
export function sdkCallBounds() {
  const requestTimeout = positiveNumber(ENV.sdkAttemptTimeoutMs, DEFAULT_ATTEMPT_MS, DEFAULT_ATTEMPT_MS);
  return {
    maxAttempts: SDK_ATTEMPTS,
    requestHandler: { connectionTimeout: Math.min(CONNECT_MS, requestTimeout), requestTimeout, throwOnRequestTimeout: true },
  } as const;
}
