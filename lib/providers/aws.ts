import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { assertAllowedHost, guardedLookup } from '../net/address-guard.ts';
import { endpointOverride } from './base-url.ts';
import { deepMerge, objectOr } from './deep-merge.ts';
import { ProviderError } from './provider.ts';
import { TransientError, withRetries, type RetryOptions } from './retry.ts';

// What the AWS providers (SES, SNS) share: a client made from the integration's own keys (never
// the function's role), the same endpoint override as every provider, and the same retries as
// the HTTP providers (the SDK's own are switched off so the bounds are ours).

export interface AwsClientConfig {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  endpoint?: string;
  maxAttempts: number;
  requestHandler: {
    requestTimeout: number;
    throwOnRequestTimeout: boolean;
    connectionTimeout: number;
    httpAgent?: HttpAgent;
    httpsAgent?: HttpsAgent;
  };
}

/**
 * An endpoint the integration names (its `baseUrl`) is the customer's choice: its connections go
 * through the SSRF guard (lib/net/address-guard.ts), a literal address checked here, a name
 * where the agents resolve it. AWS's own endpoints need no guard.
 */
export function awsClientConfig(providerId: string, credentials: Record<string, unknown>, timeoutMs: number): AwsClientConfig {
  const endpoint = endpointOverride(providerId, credentials);
  if (endpoint) assertAllowedHost(new URL(endpoint).hostname);
  return {
    region: String(credentials.region ?? '').trim(),
    credentials: { accessKeyId: String(credentials.apiKey ?? ''), secretAccessKey: String(credentials.secretKey ?? '') },
    ...(endpoint && { endpoint }),
    maxAttempts: 1,
    requestHandler: {
      requestTimeout: timeoutMs,
      // Without it the SDK only logs a request that outlasts requestTimeout (lib/sdk-timeouts.ts).
      throwOnRequestTimeout: true,
      connectionTimeout: timeoutMs,
      ...(endpoint && { httpAgent: new HttpAgent({ lookup: guardedLookup }), httpsAgent: new HttpsAgent({ lookup: guardedLookup }) }),
    },
  };
}

interface AwsFailure {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
  $retryable?: unknown;
}

const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'ThrottledException', 'TooManyRequestsException', 'RequestLimitExceeded']);
const NETWORK = new Set(['TimeoutError', 'AbortError', 'RequestTimeout', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

function failure(providerName: string, error: unknown): ProviderError | TransientError {
  const e = error as AwsFailure;
  const status = e.$metadata?.httpStatusCode;
  const raw = {
    ...(status !== undefined && { status }),
    error: e.name,
    message: e.message,
    ...(e.$metadata?.requestId && { requestId: e.$metadata.requestId }),
  };
  const problem = new ProviderError(
    `${providerName} answered ${status ?? 'nothing'}: ${e.name ?? 'Error'}: ${e.message ?? ''}`.trim(),
    raw,
  );
  const transient =
    (status !== undefined && (status >= 500 || status === 429)) ||
    THROTTLING.has(e.name ?? '') ||
    e.$retryable !== undefined ||
    (status === undefined && (NETWORK.has(e.name ?? '') || NETWORK.has(e.code ?? '')));
  return transient ? new TransientError(problem) : problem;
}

/** Runs one SDK call per attempt (given its time), retrying what is transient. */
export function callAws<T>(providerName: string, run: (timeoutMs: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  return withRetries(async (timeoutMs) => {
    try {
      return await run(timeoutMs);
    } catch (error) {
      throw failure(providerName, error);
    }
  }, options);
}

/** Trigger provider data for an SDK call: its keys and `_passthrough.body` merged into the input. */
export function withAwsProviderData<T extends object>(input: T, data: Record<string, unknown> | undefined): T {
  if (!data) return input;
  const { _passthrough, ...known } = data;
  return deepMerge(deepMerge(input as Record<string, unknown>, known), objectOr(_passthrough).body) as T;
}
