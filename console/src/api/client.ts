import { keyFor, writeSession, readSession } from '../session/session.ts';
import { ApiError, messageOf } from './errors.ts';

// Every call the console makes goes through here: the API on the console's own origin, with the
// API key of the environment the view belongs to.

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** The key to call with, instead of the environment's stored one (signing in). */
  apiKey?: string;
  signal?: AbortSignal;
  /** Given the answer's headers on 2xx (e.g. a `Warning` the body does not carry). */
  onHeaders?: (headers: Headers) => void;
}

/** `?a=1&b=x&b=y`: lists as repeated keys, as the API's list filters read them. */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Calls the API for `environmentId`; the parsed body on 2xx, else an ApiError with the API's message. */
export async function api<T = unknown>(environmentId: string, path: string, options: RequestOptions = {}): Promise<T> {
  const apiKey = options.apiKey ?? keyFor(environmentId);
  if (!apiKey) throw new ApiError(401, 'Not signed in to this environment', null);
  const response = await fetch(`${path}${queryString(options.query)}`, {
    method: options.method ?? 'GET',
    headers: {
      Authorization: `ApiKey ${apiKey}`,
      ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    ...(options.signal && { signal: options.signal }),
  });
  const text = await response.text();
  const body = parseBody(text);
  if (!response.ok) {
    // A key revoked or rotated away while signed in: forget it, so the switcher asks again.
    if (response.status === 401 && !options.apiKey) forgetKey(environmentId);
    throw new ApiError(response.status, messageOf(response.status, body), body);
  }
  options.onHeaders?.(response.headers);
  return body as T;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function forgetKey(environmentId: string): void {
  const session = readSession();
  if (!session?.keys[environmentId]) return;
  const keys = { ...session.keys };
  delete keys[environmentId];
  writeSession(Object.keys(keys).length > 0 ? { ...session, keys } : null);
}
