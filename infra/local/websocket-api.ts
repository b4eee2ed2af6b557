import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { IDLE_TIMEOUT_SECONDS, MAX_CONNECTION_SECONDS, MAX_FRAME_BYTES } from '#lib/live/gateway-limits.ts';
import type { SocketAnswer, SocketEvent } from '#lib/live/socket-handler.ts';
import type { SocketAuthorizerDef, SocketRouteDef, SocketRouteKey } from '../ws-routes.ts';
import { loadHandler } from './handlers.ts';
import { lambdaContext } from './lambda-context.ts';

// API Gateway's WebSocket API on this machine, for the socket route table (infra/ws-routes.ts):
// an upgrade runs the $connect authorizer (thrown `Unauthorized`: 401; denied: 403) and then $connect, and the
// socket opens only if both let it; each client frame runs $default (its answer's body goes back,
// as a route response does); a close runs $disconnect. Every handler gets the event API Gateway
// would send it, the authorizer's context in `requestContext.authorizer` on every route. The same
// server answers API Gateway's management API (`/@connections/{id}`: POST = PostToConnection,
// GET, DELETE), so the live consumer's SDK client points here instead of at AWS. Connections
// close as API Gateway closes them: after 10 minutes without a client frame, after 2 hours,
// and on a client frame over 128 KB.

export interface LocalSocketApi {
  /** What clients connect to (`socketUrl`): `ws://host:port`. */
  url: string;
  /** The management API's endpoint (the callback URL of a deployed stage). */
  callbackUrl: string;
  /** Connections open now. */
  openConnections(): number;
  close(): Promise<void>;
}

export interface LocalSocketApiOptions {
  routes: readonly SocketRouteDef[];
  authorizer: SocketAuthorizerDef;
  port: number;
  host?: string;
  /** API Gateway's limits, shorter in tests that watch them happen. */
  idleTimeoutMs?: number;
  maxConnectionMs?: number;
}

interface Connection {
  id: string;
  socket: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  authorizer: Record<string, unknown>;
  /** Frames are handed to $default one after another, so replies keep their order. */
  queue: Promise<void>;
  timers: NodeJS.Timeout[];
}

const ACCOUNT = '000000000000';
const API_ID = 'local';
const STAGE = 'local';

/** API Gateway's connection ids: 10 random bytes, base64 (so they can hold `/`, `+` and `=`). */
const newConnectionId = (): string => randomBytes(10).toString('base64');

export async function startWebSocketApi(options: LocalSocketApiOptions): Promise<LocalSocketApi> {
  const host = options.host ?? '127.0.0.1';
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_SECONDS * 1000;
  const maxMs = options.maxConnectionMs ?? MAX_CONNECTION_SECONDS * 1000;
  const routeOf = (key: SocketRouteKey) => options.routes.find((r) => r.routeKey === key);
  const connections = new Map<string, Connection>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
    return work;
  };

  const invoke = async (def: { handler: string; operationId: string; sends?: readonly string[] }, event: unknown): Promise<unknown> => {
    // With the queue URLs its entry declares, and no others, as the stack gives it.
    const handler = await loadHandler(def.handler, def.sends);
    return handler(event, lambdaContext(def.operationId));
  };

  const baseContext = (
    connectionId: string,
    routeKey: SocketRouteKey,
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
    connectedAt: number,
    domainName: string,
    sourceIp: string,
    userAgent: string,
  ) => {
    const now = new Date();
    return {
      routeKey,
      eventType,
      messageId: eventType === 'MESSAGE' ? randomUUID() : undefined,
      extendedRequestId: randomUUID(),
      requestTime: now.toUTCString(),
      messageDirection: 'IN' as const,
      stage: STAGE,
      connectedAt,
      requestTimeEpoch: now.getTime(),
      identity: { sourceIp, userAgent },
      requestId: randomUUID(),
      domainName,
      connectionId,
      apiId: API_ID,
    };
  };

  /** A route's handler, with its failure logged as API Gateway would log an integration error. */
  const runRoute = async (
    connection: Connection,
    key: SocketRouteKey,
    extra: Pick<Partial<SocketEvent>, 'body' | 'isBase64Encoded'> & { requestContext?: Record<string, unknown> } = {},
  ): Promise<SocketAnswer | undefined> => {
    const route = routeOf(key);
    if (!route) return undefined;
    const event = {
      ...extra,
      requestContext: {
        ...baseContext(
          connection.id,
          key,
          key === '$default' ? 'MESSAGE' : 'DISCONNECT',
          connection.connectedAt,
          `${host}`,
          connection.sourceIp,
          connection.userAgent,
        ),
        ...extra.requestContext,
        authorizer: connection.authorizer,
      },
      isBase64Encoded: extra.isBase64Encoded ?? false,
    };
    try {
      return (await invoke(route, event)) as SocketAnswer | undefined;
    } catch (error) {
      console.error(`local websocket api: ${key} failed`, error);
      return { statusCode: 500 };
    }
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = queryOf(url);
    const headers = headersOf(req.headers);
    const connectionId = newConnectionId();
    const connectedAt = Date.now();
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const userAgent = headers['user-agent'] ?? '';
    const requestContext = baseContext(connectionId, '$connect', 'CONNECT', connectedAt, headers.host ?? host, sourceIp, userAgent);
    const started = Date.now();

    const authEvent: APIGatewayRequestAuthorizerEvent = {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:us-east-1:${ACCOUNT}:${API_ID}/${STAGE}/$connect`,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      queryStringParameters: query,
      multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v.split(',')])),
      stageVariables: {},
      requestContext: requestContext as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
    } as unknown as APIGatewayRequestAuthorizerEvent;
    let policy: APIGatewayAuthorizerResult;
    try {
      policy = (await invoke(options.authorizer, authEvent)) as APIGatewayAuthorizerResult;
    } catch (error) {
      // A thrown `Unauthorized` is API Gateway's 401; anything else an authorizer failure.
      if ((error as Error | undefined)?.message === 'Unauthorized') return refuse(socket, 401, 'Unauthorized');
      console.error('local websocket api: authorizer failed', error);
      return refuse(socket, 500, 'Internal Server Error');
    }
    if (!allows(policy)) return refuse(socket, 403, 'Forbidden');
    const authorizer = { ...policy.context, principalId: policy.principalId, integrationLatency: Date.now() - started };

    const connection: Connection = {
      id: connectionId,
      socket: undefined as unknown as WebSocket,
      connectedAt,
      lastActiveAt: connectedAt,
      sourceIp,
      userAgent,
      authorizer,
      queue: Promise.resolve(),
      timers: [],
    };
    const connect = routeOf('$connect');
    if (connect) {
      let answer: SocketAnswer | undefined;
      try {
        answer = (await invoke(connect, {
          headers,
          multiValueHeaders: authEvent.multiValueHeaders,
          queryStringParameters: query,
          multiValueQueryStringParameters: authEvent.multiValueQueryStringParameters,
          requestContext: { ...requestContext, authorizer },
          isBase64Encoded: false,
        })) as SocketAnswer | undefined;
      } catch (error) {
        console.error('local websocket api: $connect failed', error);
        answer = { statusCode: 500 };
      }
      const status = answer?.statusCode ?? 200;
      if (status < 200 || status > 299) return refuse(socket, status, 'Connection refused');
    }
    // The client left while $connect ran: it was connected all the same, so it disconnects.
    if (socket.destroyed) {
      await runRoute(connection, '$disconnect', {
        requestContext: { disconnectStatusCode: 1006, disconnectReason: 'Client left during $connect' },
      });
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      connection.socket = ws;
      connections.set(connectionId, connection);
      const idle = () => setTimeout(() => ws.close(1001, 'Going away'), idleMs);
      connection.timers = [idle(), setTimeout(() => ws.close(1001, 'Going away'), maxMs)];
      ws.on('message', (data: RawData, isBinary: boolean) => {
        connection.lastActiveAt = Date.now();
        clearTimeout(connection.timers[0]);
        connection.timers[0] = idle();
        const body = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
        connection.queue = connection.queue.then(async () => {
          const answer = await track(
            runRoute(connection, '$default', {
              body: isBinary ? body.toString('base64') : body.toString('utf8'),
              isBase64Encoded: isBinary,
            }),
          );
          if (answer?.statusCode !== undefined && answer.statusCode >= 500) {
            send(ws, JSON.stringify({ message: 'Internal server error', connectionId, requestId: randomUUID() }));
          } else if (typeof answer?.body === 'string') {
            send(ws, answer.body);
          }
        });
      });
      ws.on('close', (code: number, reason: Buffer) => {
        connections.delete(connectionId);
        for (const timer of connection.timers) clearTimeout(timer);
        void track(
          runRoute(connection, '$disconnect', {
            requestContext: { disconnectStatusCode: code, disconnectReason: reason.toString('utf8') },
          }),
        );
      });
      ws.on('error', () => undefined);
    });
  };

  /** The management API: what API Gateway serves at the stage's callback URL. */
  const manage = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/@connections\/([^/?]+)$/.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!match) return answer(res, 403, { message: 'Forbidden' }, 'ForbiddenException');
    const connection = connections.get(decodeURIComponent(match[1]!));
    const body = await readBody(req);
    if (!connection) return answer(res, 410, {}, 'GoneException');
    if (req.method === 'POST') {
      if (body.length > MAX_FRAME_BYTES) return answer(res, 413, { message: 'Message too long' }, 'PayloadTooLargeException');
      // API Gateway sends the data as a text frame.
      send(connection.socket, body.toString('utf8'));
      return answer(res, 200);
    }
    if (req.method === 'GET') {
      return answer(res, 200, {
        connectedAt: new Date(connection.connectedAt).toISOString(),
        identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
        lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
      });
    }
    if (req.method === 'DELETE') {
      connection.socket.close(1000, 'Closed by the server');
      return answer(res, 204);
    }
    return answer(res, 403, { message: 'Forbidden' }, 'ForbiddenException');
  };

  const server = createServer((req, res) => {
    manage(req, res).catch((error: unknown) => {
      console.error('local websocket api: management call failed', error);
      if (!res.headersSent) answer(res, 500, { message: 'Internal Server Error' });
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    track(upgrade(req, socket, head)).catch((error: unknown) => {
      console.error('local websocket api: connect failed', error);
      refuse(socket, 500, 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as { port: number };

  return {
    url: `ws://${host}:${port}`,
    callbackUrl: `http://${host}:${port}`,
    openConnections: () => connections.size,
    close: async () => {
      // Every socket closes, and its $disconnect runs, before the table goes away.
      await Promise.all(
        [...connections.values()].map(
          ({ socket }) =>
            new Promise<void>((resolve) => {
              socket.once('close', () => resolve());
              socket.terminate();
            }),
        ),
      );
      while (pending.size > 0) await Promise.allSettled([...pending]);
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether the authorizer's policy lets the connection invoke the API. */
function allows(policy: APIGatewayAuthorizerResult | undefined): boolean {
  const statements = policy?.policyDocument?.Statement ?? [];
  const effects = statements.map((s) => (s as { Effect?: string }).Effect);
  return effects.length > 0 && effects.every((e) => e === 'Allow');
}

/** Query parameters as API Gateway passes them: repeated ones joined with commas. */
function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  return query;
}

function headersOf(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  return headers;
}

function send(socket: WebSocket, text: string): void {
  if (socket.readyState === socket.OPEN) socket.send(text);
}

/** Ends an upgrade that is not let in, with the status API Gateway would answer. */
function refuse(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ message: reason });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function answer(res: ServerResponse, status: number, body?: unknown, errorType?: string): void {
  const headers: Record<string, string> = {};
  // The SDK names an error by this header (restJson1).
  if (errorType) headers['x-amzn-errortype'] = errorType;
  if (body !== undefined) headers['content-type'] = 'application/json';
  res.writeHead(status, headers);
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is not kept: the answer is 413 anyway.
      if (size <= MAX_FRAME_BYTES + 1) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
