import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertAllowedHost, guardedLookup } from './address-guard.ts';

// One POST to a customer's URL through the SSRF guard (address-guard.ts), bounded in time, the
// answer read up to a cap: what the webhook sender needs to record an attempt. Plain node:http,
// because its `lookup` option is where the guard sits (fetch has no such hook without undici).

export interface PostOutcome {
  /** The HTTP status, or undefined when no answer came (timeout, refused address, connection error). */
  status?: number;
  /** The start of the answer's body, or why there was none. */
  excerpt: string;
}

const MAX_READ_BYTES = 4096;

export function guardedPost(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      assertAllowedHost(target.hostname);
    } catch (error) {
      return resolve({ excerpt: (error as Error).message });
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          if (read < MAX_READ_BYTES) chunks.push(chunk);
          read += chunk.length;
        });
        res.on('end', () => finish({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, MAX_READ_BYTES) }));
        res.on('error', () => finish({ status: res.statusCode ?? 0, excerpt: '' }));
      },
    );
    const timer = setTimeout(() => {
      finish({ excerpt: `No answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish({ excerpt: error.message }));
    req.end(body);
  });
}
