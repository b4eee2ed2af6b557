import { ForbiddenAddressError } from '../net/address-guard.ts';
import { guardedRequest, RequestTimeoutError, type GuardedAnswer } from '../net/guarded-request.ts';
import { ProviderError } from './provider.ts';
import { deepMerge, isPlainObject, objectOr, stringValues } from './deep-merge.ts';
import { TransientError, retryAfterMs, withRetries, type RetryOptions } from './retry.ts';

// Every HTTP API provider calls through here: one request, a timeout per attempt, retries of what
// is transient (no answer in time, connection errors, 408, 429 with its Retry-After, 5xx), and a
// ProviderError carrying the provider's answer (status and body) when it fails for good.

export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded; an array repeats its key. */
  form?: Record<string, string | readonly string[] | undefined>;
  /** Sent as multipart/form-data (text fields only); an array repeats its key. */
  multipart?: Record<string, string | readonly string[] | undefined>;
  /** Sent as it is (a signed body); its content-type goes in `headers`. */
  body?: string;
  /**
   * Whether an error answer is final whatever its status: for vendors that answer every error
   * with the same status (Mandrill's 500 for a bad key).
   */
  isFinal?(answer: ProviderAnswer): boolean;
}

export interface ProviderAnswer {
  status: number;
  headers: Headers;
  /** The answer's JSON, or its text when it is not JSON. */
  body: unknown;
}

export function callProvider(providerName: string, request: ProviderRequest, options: RetryOptions = {}): Promise<ProviderAnswer> {
  return withRetries((timeoutMs) => attempt(providerName, request, timeoutMs), options);
}

const CHECK_BUDGET_MS = 10_000;

/** A connection check's call (`check: true`): GET unless said, within 10 s so the API answers in time. */
export function checkCall(providerName: string, request: ProviderRequest): Promise<ProviderAnswer> {
  return callProvider(providerName, { method: 'GET', ...request }, { until: Date.now() + CHECK_BUDGET_MS });
}

async function attempt(name: string, request: ProviderRequest, timeoutMs: number): Promise<ProviderAnswer> {
  const url = new URL(request.url);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.append(key, value);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined = request.body;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] ??= 'application/json';
  } else if (request.form) {
    body = new URLSearchParams(fieldPairs(request.form)).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (request.multipart) {
    // The runtime's own encoder writes the parts and names the boundary.
    const form = new FormData();
    for (const [key, value] of fieldPairs(request.multipart)) form.append(key, value);
    const encoded = new Response(form);
    body = await encoded.text();
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
  }

  let response: GuardedAnswer;
  try {
    // Through the SSRF guard: a provider's URL may be the customer's (a webhook, a baseUrl).
    response = await guardedRequest(url, { method: request.method ?? 'POST', headers, ...(body !== undefined && { body }), timeoutMs });
  } catch (error) {
    // An address the guard refuses stays refused: failed for good, not retried.
    if (error instanceof ForbiddenAddressError) throw new ProviderError(`${name} was not called: ${error.message}`, { error: error.code });
    const timedOut = error instanceof RequestTimeoutError;
    const reason = timedOut ? 'timeout' : causeOf(error);
    const message = timedOut ? `${name} did not answer within ${timeoutMs} ms` : `${name} could not be reached: ${reason}`;
    throw new TransientError(new ProviderError(message, { error: reason }));
  }

  const answer: ProviderAnswer = { status: response.status, headers: response.headers, body: parse(response.text) };
  if (response.status >= 200 && response.status < 300) return answer;
  const said = providerMessage(answer.body);
  const failure = new ProviderError(`${name} answered ${response.status}${said ? `: ${said}` : ''}`, {
    status: response.status,
    body: answer.body,
  });
  if ((response.status === 408 || response.status === 429 || response.status >= 500) && !request.isFinal?.(answer)) {
    throw new TransientError(failure, retryAfterMs(response.headers.get('retry-after')));
  }
  throw failure;
}

/** A form's fields as key/value pairs: an array repeats its key, an undefined value is left out. */
function fieldPairs(fields: Record<string, string | readonly string[] | undefined>): [string, string][] {
  return Object.entries(fields).flatMap(([key, value]) =>
    (typeof value === 'string' ? [value] : (value ?? [])).map((one): [string, string] => [key, one]),
  );
}

function parse(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function causeOf(error: unknown): string {
  const { code, cause } = error as { code?: string; cause?: { code?: string; message?: string } };
  return code ?? cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

const MESSAGE_KEYS = [
  'message',
  'Message',
  'errorMessage',
  'ErrorMessage',
  'error_description',
  'error-text',
  'detail',
  'title',
  'description',
  'text',
  'error',
  'Error',
];
const MAX_MESSAGE = 300;

/**
 * The provider's own words in an error answer: a message-like field, the shallowest first (then
 * nested objects and lists), shortened; or the answer itself when it is text.
 */
export function providerMessage(body: unknown): string | undefined {
  const short = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);
  if (typeof body === 'string') return body.trim() ? short(body.trim()) : undefined;
  const queue: unknown[] = [body];
  for (let seen = 0; queue.length > 0 && seen < 100; seen++) {
    const value = queue.shift();
    if (Array.isArray(value)) {
      queue.push(...value.slice(0, 5));
    } else if (isPlainObject(value)) {
      for (const key of MESSAGE_KEYS) {
        const said = value[key];
        if (typeof said === 'string' && said.trim()) return short(said.trim());
      }
      // A list of error texts (Mailtrap's `errors: ["..."]`).
      const [first] = Array.isArray(value.errors) ? (value.errors as unknown[]) : [];
      if (typeof first === 'string' && first.trim()) return short(first.trim());
      for (const nested of Object.values(value)) if (nested !== null && typeof nested === 'object') queue.push(nested);
    }
  }
  return undefined;
}

/**
 * Applies the trigger's provider data to a request, as the reference does: its keys merged into
 * the body (the query of a GET), then `_passthrough.body` into the body and `_passthrough.headers` / `.query` onto
 * the request. Keys are used as given (the reference also re-cases them per provider).
 */
export function withProviderData(request: ProviderRequest, data: Record<string, unknown> | undefined): ProviderRequest {
  if (!data || Object.keys(data).length === 0) return request;
  const { _passthrough, ...known } = data;
  const passthrough = objectOr(_passthrough);
  const extraBody = deepMerge(known, passthrough.body);
  const result: ProviderRequest = {
    ...request,
    headers: { ...request.headers, ...stringValues(passthrough.headers) },
    query: { ...request.query, ...stringValues(passthrough.query) },
  };
  if (isPlainObject(request.json)) result.json = deepMerge(request.json, extraBody);
  else if (request.form) result.form = { ...request.form, ...stringValues(extraBody) };
  else if (request.multipart) result.multipart = { ...request.multipart, ...stringValues(extraBody) };
  // A request without a body (Kannel's GET) carries its parameters in the query.
  else if (request.method === 'GET') result.query = { ...request.query, ...stringValues(extraBody), ...stringValues(passthrough.query) };
  return result;
}

/** An HTTP Basic authorization header value. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
