import { createServer, type IncomingHttpHeaders } from 'node:http2';
import { answer, jsonOrUndefined, listenScripted, scripted, whenReceived, type ScriptedReply, type ScriptedServer } from './fake-server.ts';

// An HTTP/2 stand-in for APNs in tests: plain h2c on 127.0.0.1 (port 0), recording every request
// and answering what the test tells it to.

export interface Http2Request {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json: any;
}

/** An answer of the HTTP/2 stand-in: its body always JSON-encoded. */
export type Http2Reply = ScriptedReply;

export type FakeHttp2 = ScriptedServer<Http2Request, Http2Reply>;

/** The HTTP/2 stand-in; its default answer is a bare 200. */
export async function startFakeHttp2(): Promise<FakeHttp2> {
  const fake = scripted<Http2Request, Http2Reply>({ status: 200 });
  const server = createServer();
  server.on('stream', (stream, headers) => {
    whenReceived(stream, (raw) => {
      const request: Http2Request = {
        method: String(headers[':method']),
        path: String(headers[':path']),
        headers,
        json: jsonOrUndefined(raw.toString('utf8')),
      };
      answer(fake, request, (reply) => {
        if (stream.destroyed || stream.closed) return;
        stream.respond({ ':status': reply.status ?? 200, 'content-type': 'application/json', ...reply.headers });
        stream.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      });
    });
  });
  // Clients cancel streams they gave up on; that is no error here.
  server.on('sessionError', () => undefined);
  return listenScripted(server, fake);
}
