import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach } from 'vitest';

// Stand-ins for provider APIs in tests: an HTTP server (port 0) that records every request and
// answers what the test tells it to, and an SMTP server that receives mail and parses it.

export interface RecordedRequest {
  method: string;
  /** Path and query string as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
  /** The body as form fields (x-www-form-urlencoded). */
  form: URLSearchParams;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON-encoded unless it is a string. */
  body?: unknown;
  /** Hold the answer this long (to make the caller time out). */
  delayMs?: number;
}

export interface FakeApi {
  url: string;
  requests: RecordedRequest[];
  /** How to answer; may look at the request. Default: 200 `{}`. */
  reply: (request: RecordedRequest, index: number) => Reply;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A provider suite's fake API: started before the file's tests, emptied before each, closed after;
 * and short provider timeouts and retry waits for the calls this worker makes itself.
 */
export function fakeApiForFile(): FakeApi {
  process.env.PROVIDER_TIMEOUT_MS = '400';
  process.env.PROVIDER_RETRY_BACKOFF_MS = '20';
  let started: FakeApi | undefined;
  const current = (): FakeApi => {
    if (!started) throw new Error('the fake API starts before the tests');
    return started;
  };
  beforeAll(async () => {
    started = await startFakeApi();
  });
  afterAll(() => started?.close());
  beforeEach(() => started?.reset());
  // The server answers with the started API's `reply`: reads and writes go to it.
  return new Proxy({} as FakeApi, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
  });
}

export async function startFakeApi(): Promise<FakeApi> {
  const api: FakeApi = {
    url: '',
    requests: [],
    reply: () => ({ status: 200, body: {} }),
    reset() {
      api.requests.length = 0;
      api.reply = () => ({ status: 200, body: {} });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        text,
        json,
        form: new URLSearchParams(text),
      };
      api.requests.push(recorded);
      const reply = api.reply(recorded, api.requests.length - 1);
      const answer = () => {
        if (res.destroyed) return;
        const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        const type = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
        res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
        res.end(body);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Whether the session was encrypted (STARTTLS) when the mail came. */
  secure: boolean;
  mail: ParsedMail;
}

export interface FakeSmtp {
  host: string;
  port: number;
  received: ReceivedMail[];
  /** An SMTP error to answer the next messages with (e.g. 450 or 550), or undefined to accept. */
  refuseWith: { code: number; message: string } | undefined;
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Offer STARTTLS (with smtp-server's own self-signed certificate). Default: no TLS. */
  startTls?: boolean;
  /** The user name it accepts with password `secret`. Default: `user`. */
  user?: string;
}

/** An SMTP server on 127.0.0.1 that accepts user `user` / password `secret`, or anyone when auth is off. */
export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const fake: FakeSmtp = {
    host: '127.0.0.1',
    port: 0,
    received: [],
    refuseWith: undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    disabledCommands: options.startTls ? [] : ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === (options.user ?? 'user') && auth.password === 'secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const refusal = fake.refuseWith;
        if (refusal) {
          const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            fake.received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              secure: session.secure,
              mail,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.port = (server.server.address() as AddressInfo).port;
  return fake;
}
