import { createServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';

// An HTTP/2 stand-in for APNs in tests: plain h2c on 127.0.0.1 (port 0), recording every request
// and answering what the test tells it to.

export interface Http2Request {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json: any;
}

export interface Http2Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Hold the answer this long (to make the caller time out). */
  delayMs?: number;
}

export interface FakeHttp2 {
  url: string;
  requests: Http2Request[];
  reply: (request: Http2Request, index: number) => Http2Reply;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeHttp2(): Promise<FakeHttp2> {
  const streams = new Set<ServerHttp2Stream>();
  const fake: FakeHttp2 = {
    url: '',
    requests: [],
    reply: () => ({ status: 200 }),
    reset() {
      fake.requests.length = 0;
      fake.reply = () => ({ status: 200 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.close();
        server.close(() => resolve());
      }),
  };
  const server: Http2Server = createServer();
  server.on('stream', (stream, headers) => {
    streams.add(stream);
    stream.on('close', () => streams.delete(stream));
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const request: Http2Request = { method: String(headers[':method']), path: String(headers[':path']), headers, json };
      fake.requests.push(request);
      const reply = fake.reply(request, fake.requests.length - 1);
      const answer = () => {
        if (stream.destroyed || stream.closed) return;
        stream.respond({ ':status': reply.status ?? 200, 'content-type': 'application/json', ...reply.headers });
        stream.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
  });
  // Clients cancel streams they gave up on; that is no error here.
  server.on('sessionError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
