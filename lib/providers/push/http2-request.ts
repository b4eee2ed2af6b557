import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { ProviderError } from '../provider.ts';
import { TransientError, retryAfterMs, withRetries } from '../retry.ts';

// HTTP/2 requests for APNs, which speaks nothing else. One session per origin is kept and reused
// (Apple asks senders to keep connections open rather than reconnect per push); a session that
// errors, is told to go away, or idles for a minute is dropped and the next request reconnects.

export interface Http2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, else the text ('' when empty). */
  body: unknown;
}

const IDLE_MS = 60_000;
const sessions = new Map<string, ClientHttp2Session>();

export function requestHttp2(name: string, origin: string, headers: OutgoingHttpHeaders, body: string): Promise<Http2Answer> {
  return withRetries(async (timeoutMs) => {
    const answer = await attempt(name, origin, headers, body, timeoutMs);
    if (answer.status === 429 || answer.status >= 500) {
      const retryAfter = answer.headers['retry-after'];
      throw new TransientError(
        new ProviderError(`${name} answered ${answer.status}`, { status: answer.status, body: answer.body }),
        retryAfterMs(typeof retryAfter === 'string' ? retryAfter : null),
      );
    }
    return answer;
  });
}

function attempt(name: string, origin: string, headers: OutgoingHttpHeaders, body: string, timeoutMs: number): Promise<Http2Answer> {
  return new Promise((resolve, reject) => {
    const unreachable = (reason: string) =>
      reject(new TransientError(new ProviderError(`${name} could not be reached: ${reason}`, { error: reason })));
    let session: ClientHttp2Session;
    try {
      session = sessionFor(origin);
    } catch (error) {
      unreachable((error as Error).message);
      return;
    }
    hold(session, 1);
    const stream = session.request({ [constants.HTTP2_HEADER_METHOD]: 'POST', ...headers });
    const chunks: Buffer[] = [];
    let responseHeaders: IncomingHttpHeaders = {};
    stream.setTimeout(timeoutMs, () => {
      stream.close(constants.NGHTTP2_CANCEL);
      reject(new TransientError(new ProviderError(`${name} did not answer within ${timeoutMs} ms`, { error: 'timeout' })));
    });
    stream.on('response', (h) => (responseHeaders = h));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', (error: Error & { code?: string }) => unreachable(error.code ?? error.message));
    stream.on('close', () => {
      hold(session, -1);
      const status = Number(responseHeaders[constants.HTTP2_HEADER_STATUS] ?? 0);
      if (!status) return unreachable('the stream closed without an answer');
      resolve({ status, headers: responseHeaders, body: parse(Buffer.concat(chunks).toString('utf8')) });
    });
    stream.end(body);
  });
}

function sessionFor(origin: string): ClientHttp2Session {
  const existing = sessions.get(origin);
  if (existing && !existing.closed && !existing.destroyed) return existing;
  const session = connect(origin);
  const forget = () => {
    if (sessions.get(origin) === session) sessions.delete(origin);
  };
  session.on('error', forget);
  session.on('goaway', forget);
  session.on('close', forget);
  session.setTimeout(IDLE_MS, () => {
    forget();
    session.close();
  });
  session.unref();
  sessions.set(origin, session);
  return session;
}

// A session keeps the process alive only while it has requests in flight.
const inFlight = new WeakMap<ClientHttp2Session, number>();
function hold(session: ClientHttp2Session, change: 1 | -1): void {
  const count = (inFlight.get(session) ?? 0) + change;
  inFlight.set(session, count);
  if (session.destroyed) return;
  if (count > 0) session.ref();
  else session.unref();
}

/** Closes every kept session (tests, shutdown). */
export function closeHttp2Sessions(): void {
  for (const session of sessions.values()) session.close();
  sessions.clear();
}

function parse(text: string): unknown {
  if (!text) return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
