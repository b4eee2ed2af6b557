import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebSocketApi, type LocalSocketApi } from '#infra/local/websocket-api.ts';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';
import { connectionsOf } from '#lib/live/connections.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { SOCKET_WAIT, subscriberSession, TestSocket, withToken } from '../support/sockets.ts';

// The local emulation of API Gateway's WebSocket API as the AWS SDK and a client see it: the
// management API answers as API Gateway's does (the SDK's own error types included), and
// connections close on API Gateway's limits, shortened here so the test sees them happen.

let api: TestApi;
let env: TestEnv;
let sockets: LocalSocketApi;
let management: ApiGatewayManagementApiClient;
const IDLE_MS = 1_500;
const MAX_MS = 4_000;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  sockets = await startWebSocketApi({
    routes: socketRoutes,
    authorizer: socketAuthorizer,
    port: 0,
    idleTimeoutMs: IDLE_MS,
    maxConnectionMs: MAX_MS,
  });
  management = new ApiGatewayManagementApiClient({
    endpoint: sockets.callbackUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  management.destroy();
  await sockets.close();
  await api.close();
});

/** A socket of a new subscriber, and its connection id (from the item $connect stored). */
async function openOne(): Promise<{ socket: TestSocket; connectionId: string; subscriberId: string }> {
  const { session, token } = await subscriberSession(env);
  const socket = await TestSocket.open(withToken(sockets.url, token));
  const [connection] = await connectionsOf(env.scope, session.subscriberId, new Date());
  expect(connection).toBeDefined();
  return { socket, connectionId: connection!.connectionId, subscriberId: session.subscriberId };
}

const errorName = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { name?: string }) => error.name,
  );

describe('the management API (the SDK client against the local endpoint)', () => {
  it('posts text frames, describes and deletes a connection, and answers 410 once it is gone', async () => {
    const { socket, connectionId, subscriberId } = await openOne();
    // API Gateway's ids are base64: the SDK percent-encodes them in the path, the server decodes.
    expect(connectionId).toMatch(/^[A-Za-z0-9+/]{13}[A-Za-z0-9+/=]{3}$/);

    await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('{"event":"x","data":{}}') }));
    await vi.waitFor(() => expect(socket.texts).toEqual(['{"event":"x","data":{}}']), SOCKET_WAIT);

    const described = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(described.ConnectedAt).toBeInstanceOf(Date);
    expect(described.Identity?.SourceIp).toBe('127.0.0.1');

    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    await vi.waitFor(() => expect(socket.closed).toBeDefined(), SOCKET_WAIT);
    // Closed by the server: $disconnect ran all the same and removed the item.
    await vi.waitFor(async () => expect(await connectionsOf(env.scope, subscriberId, new Date())).toEqual([]), SOCKET_WAIT);

    expect(await errorName(management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('late') })))).toBe(
      'GoneException',
    );
    expect(await errorName(management.send(new GetConnectionCommand({ ConnectionId: connectionId })))).toBe('GoneException');
    expect(await errorName(management.send(new PostToConnectionCommand({ ConnectionId: 'bm9uZQ==', Data: Buffer.from('x') })))).toBe(
      'GoneException',
    );
  });

  it('refuses a frame over 128 KB (PayloadTooLargeException) and sends nothing', async () => {
    const { socket, connectionId } = await openOne();
    const big = Buffer.alloc(128 * 1024 + 1, 'a');
    expect(await errorName(management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: big })))).toBe(
      'PayloadTooLargeException',
    );
    await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('after') }));
    await vi.waitFor(() => expect(socket.texts).toEqual(['after']), SOCKET_WAIT);
    await socket.close();
  });
});

describe("API Gateway's connection limits", () => {
  it('closes a socket that sent nothing for the idle timeout (1001), and runs $disconnect', async () => {
    const { socket, subscriberId } = await openOne();
    await vi.waitFor(() => expect(socket.closed).toEqual({ code: 1001, reason: 'Going away' }), { timeout: IDLE_MS * 4, interval: 50 });
    await vi.waitFor(async () => expect(await connectionsOf(env.scope, subscriberId, new Date())).toEqual([]), SOCKET_WAIT);
  });

  it('keeps a pinging socket past the idle timeout, and closes it at the connection limit', async () => {
    const { socket } = await openOne();
    const opened = Date.now();
    const pinger = setInterval(() => socket.send('ping'), IDLE_MS / 4);
    try {
      await vi.waitFor(() => expect(socket.closed).toEqual({ code: 1001, reason: 'Going away' }), { timeout: MAX_MS * 3, interval: 50 });
    } finally {
      clearInterval(pinger);
    }
    expect(Date.now() - opened).toBeGreaterThanOrEqual(MAX_MS - 100);
    expect(socket.texts.filter((t) => t === 'pong').length).toBeGreaterThan(2);
  });

  it('closes a socket that sends a frame over 128 KB (1009)', async () => {
    const { socket } = await openOne();
    socket.send('a'.repeat(128 * 1024 + 1));
    await vi.waitFor(() => expect(socket.closed?.code).toBe(1009), SOCKET_WAIT);
  });
});
