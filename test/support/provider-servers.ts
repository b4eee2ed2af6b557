import { createServer, type IncomingHttpHeaders } from 'node:http';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import {
  answer,
  jsonOrUndefined,
  listenOnLoopback,
  listenScripted,
  scripted,
  whenReceived,
  type ScriptedReply,
  type ScriptedServer,
} from './fake-server.ts';
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

/** An answer of the HTTP stand-in: its body JSON-encoded unless it is a string. */
export type Reply = ScriptedReply;

export type FakeApi = ScriptedServer<RecordedRequest, Reply>;

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

/** The HTTP stand-in; its default answer is 200 `{}`. */
export async function startFakeApi(): Promise<FakeApi> {
  const fake = scripted<RecordedRequest, Reply>({ status: 200, body: {} });
  const server = createServer((req, res) => {
    whenReceived(req, (raw) => {
      const text = raw.toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        text,
        json: jsonOrUndefined(text),
        form: new URLSearchParams(text),
      };
      answer(fake, recorded, (reply) => {
        if (res.destroyed) return;
        const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        const type = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
        res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
        res.end(body);
      });
    });
  });
  return listenScripted(server, fake);
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
      whenReceived(stream, (raw) => {
        const refusal = fake.refuseWith;
        if (refusal) {
          const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          callback(error);
          return;
        }
        simpleParser(raw)
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
  // Closed by the SMTP server itself, which lets the sessions it holds end first.
  fake.port = (await listenOnLoopback(server.server)).port;
  return fake;
}
