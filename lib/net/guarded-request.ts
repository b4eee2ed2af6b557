import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertAllowedHost, guardedLookup } from './address-guard.ts';

// Every HTTP call the service makes to a URL a customer chose (webhook endpoints, webhook and
// chat/push providers, an integration's baseUrl, a subscriber's webhookUrl) goes through here:
// the SSRF guard (address-guard.ts) at connect time, a bound in time, the answer read up to a
// cap. Plain node:http, because its `lookup` option is where the guard sits (fetch has no such
// hook without bundling undici). Redirects are not followed: a redirect could point anywhere.

export interface GuardedRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Read at most this much of the answer (default 1 MB). */
  maxBytes?: number;
}

export interface GuardedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** No answer within the time allowed (named as fetch names its timeout). */
export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

const DEFAULT_MAX_BYTES = 1 << 20;

/** The answer, whatever its status; rejects when none came (refused address, connection error, timeout). */
export function guardedRequest(url: string | URL, init: GuardedRequest): Promise<GuardedAnswer> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
      assertAllowedHost(target.hostname);
    } catch (error) {
      return reject(error as Error);
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const headers = { ...init.headers, ...(init.body !== undefined && { 'content-length': String(Buffer.byteLength(init.body)) }) };
    const req = send(target, { method: init.method, headers, lookup: guardedLookup, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        if (read < maxBytes) chunks.push(chunk);
        read += chunk.length;
      });
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        settle(() =>
          resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text: text.length > maxBytes ? text.slice(0, maxBytes) : text }),
        );
      });
      res.on('error', (error) => settle(() => reject(error)));
    });
    const timer = setTimeout(() => {
      settle(() => reject(new RequestTimeoutError(`No answer within ${init.timeoutMs} ms`)));
      req.destroy();
    }, init.timeoutMs);
    req.on('error', (error) => settle(() => reject(error)));
    req.end(init.body);
  });
}

export interface PostOutcome {
  /** The HTTP status, or undefined when no answer came (timeout, refused address, connection error). */
  status?: number;
  /** The start of the answer's body, or why there was none. */
  excerpt: string;
}

const EXCERPT_BYTES = 4096;

/** One POST whose outcome is recorded rather than thrown (a webhook delivery attempt). */
export async function guardedPost(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  try {
    const answer = await guardedRequest(url, { method: 'POST', headers, body, timeoutMs, maxBytes: EXCERPT_BYTES });
    return { status: answer.status, excerpt: answer.text };
  } catch (error) {
    return { excerpt: (error as Error).message };
  }
}
