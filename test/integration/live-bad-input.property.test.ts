import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signSessionToken } from '#lib/auth/session-token.ts';
import { admitSocket } from '#lib/live/admit.ts';
import { sessionOfSocket, socketContextOf } from '#lib/live/socket-session.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { SOCKET_WAIT, subscriberSession, TestSocket, withToken } from '../support/sockets.ts';

// Bad input at the inbox sockets, property-based: whatever a client puts in `?token=` opens a
// socket only for a session token of ours, and is otherwise refused with 401/403, never a 5xx;
// whatever a socket sends, it gets `pong` for `ping` and nothing else, and stays open; whatever
// an authorizer context holds, the routes read a session out of it or none, never throw.

let api: TestApi;
let env: TestEnv;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
});
afterAll(() => api.close());

const odd = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    '.',
    '..',
    'a.b.c',
    'eyJhbGciOiJub25lIn0.e30.',
    'eyJhbGciOiJIUzI1NiJ9.e30.x',
    '\u0000',
    '%00',
    '\ud800',
  ),
  fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((parts) => parts.join('.')),
);

describe('the socket authorizer', () => {
  it('admits no token but ours', async () => {
    await fc.assert(
      fc.asyncProperty(odd, async (token) => {
        expect(await admitSocket(token)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('admits ours with its session, and never one altered or expired', async () => {
    const { session, token } = await subscriberSession(env, ['tenant:acme']);
    expect(await admitSocket(token)).toEqual(socketContextOf(session));
    // A token of ours altered anywhere in its payload is not ours any more.
    const [head, payload, signature] = token.split('.');
    const changed = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    changed.subscriberId = 'someone-else';
    expect(await admitSocket([head, Buffer.from(JSON.stringify(changed)).toString('base64url'), signature].join('.'))).toBeUndefined();
    // Expired: signed two weeks and two days ago.
    expect(await admitSocket(await signSessionToken(session, new Date(Date.now() - 17 * 24 * 3600 * 1000)))).toBeUndefined();
  });

  it('reads a session out of any authorizer context, or none, without throwing', () => {
    fc.assert(
      fc.property(fc.anything(), (context) => {
        const session = sessionOfSocket(context);
        if (session) expect(typeof session.subscriberId).toBe('string');
      }),
      { numRuns: 500 },
    );
    expect(
      sessionOfSocket({ organizationId: 'o', environmentId: 'e', subscriberId: 's', subscriberDbId: 'd', contextKeys: '[1]' }),
    ).toBeUndefined();
    expect(
      sessionOfSocket({ organizationId: 'o', environmentId: 'e', subscriberId: 's', subscriberDbId: 'd', contextKeys: '{' }),
    ).toBeUndefined();
  });
});

describe('the local WebSocket API', () => {
  it('refuses odd tokens with 401 or 403, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(odd, async (token) => {
        const status = await TestSocket.open(withToken(api.socketUrl, token)).then(
          (socket) => {
            void socket.close();
            return 101;
          },
          (error: { status?: number }) => error.status,
        );
        expect([401, 403]).toContain(status);
      }),
      { numRuns: 40 },
    );
  });

  it('answers only `ping`, whatever else a socket sends, and stays open', async () => {
    const { token } = await subscriberSession(env);
    const socket = await TestSocket.open(withToken(api.socketUrl, token));
    const frames = fc
      .sample(fc.oneof(fc.string(), fc.json(), fc.constantFrom('PING', ' ping', 'ping\n', 'pong', '')), 60)
      .filter((f) => f !== 'ping');
    for (const frame of frames) socket.send(frame);
    socket.ws.send(Buffer.from([0, 1, 2, 255]), { binary: true });
    socket.send('ping');
    await vi.waitFor(() => expect(socket.texts).toEqual(['pong']), SOCKET_WAIT);
    expect(socket.closed).toBeUndefined();
    await socket.close();
  });
});
