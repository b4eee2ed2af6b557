import type { AddressInfo, Server, Socket } from 'node:net';
import type { Readable } from 'node:stream';

// What the tests' stand-in servers share (provider-servers.ts, fake-http2.ts, fake-kms.ts,
// browser.ts): a free port of the loopback, the whole body of a request, and, for the fakes a
// test scripts, the requests recorded and the answers the test chose.

export interface Listening {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Stops the server, ending the connections clients still keep open. */
  close(): Promise<void>;
}

/** Starts `server` on a free port of 127.0.0.1. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Calls `then` with the whole body once it has arrived. */
export function whenReceived(stream: Readable, then: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => then(Buffer.concat(chunks)));
}

/** The text as JSON; undefined when it is empty or not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** What a scripted fake answers. */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Hold the answer this long (to make the caller time out). */
  delayMs?: number;
}

/** A fake a test scripts: every request it received, and how it answers the next ones. */
export interface Scripted<Request, Reply> {
  requests: Request[];
  /** How to answer; may look at the request. */
  reply: (request: Request, index: number) => Reply;
  /** Forgets the requests and answers `defaultReply` again. */
  reset(): void;
}

/** A scripted fake on a port of its own. */
export interface ScriptedServer<Request, Reply> extends Scripted<Request, Reply> {
  url: string;
  close(): Promise<void>;
}

/** A fake with no requests yet that answers `defaultReply` until the test sets `reply`. */
export function scripted<Request, Reply>(defaultReply: Reply): Scripted<Request, Reply> {
  const fake: Scripted<Request, Reply> = {
    requests: [],
    reply: () => defaultReply,
    reset() {
      fake.requests.length = 0;
      fake.reply = () => defaultReply;
    },
  };
  return fake;
}

/** Starts `server` on the loopback as the scripted `fake`. */
export async function listenScripted<Request, Reply>(
  server: Server,
  fake: Scripted<Request, Reply>,
): Promise<ScriptedServer<Request, Reply>> {
  const { url, close } = await listenOnLoopback(server);
  return Object.assign(fake, { url, close });
}

/** Records `request` and sends the reply the script chose, `delayMs` later when it sets one (to make the caller time out). */
export function answer<Request, Reply extends ScriptedReply>(
  fake: Scripted<Request, Reply>,
  request: Request,
  send: (reply: Reply) => void,
): void {
  fake.requests.push(request);
  const reply = fake.reply(request, fake.requests.length - 1);
  if (reply.delayMs) setTimeout(() => send(reply), reply.delayMs).unref();
  else send(reply);
}
