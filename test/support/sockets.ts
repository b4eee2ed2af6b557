import { expect, vi } from 'vitest';
import { WebSocket } from 'ws';
import { signSessionToken, type SubscriberSession } from '#lib/auth/session-token.ts';
import type { ApiClient, TestEnv } from './api.ts';
import { rand } from './pipeline.ts';

// Inbox sockets as a browser opens them in PartySocket mode: `?token=<session token>` on the
// socket URL, text frames both ways. Frames are kept in arrival order; waits poll with a bound.

export const SOCKET_WAIT = { timeout: 20_000, interval: 50 };

export interface Frame {
  event: string;
  data: any;
}

export class TestSocket {
  /** JSON frames `{event, data}` in arrival order. */
  readonly frames: Frame[] = [];
  /** Every text frame as received (`pong` included). */
  readonly texts: string[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      this.texts.push(text);
      try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed.event === 'string') this.frames.push(parsed as Frame);
      } catch {
        // not JSON (`pong`)
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
  static open(url: string): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`Upgrade refused: ${res.statusCode}`), { status: res.statusCode }));
        ws.terminate();
      });
      ws.once('error', (error) => reject(error));
    });
  }

  /** The frames of one event, in order. */
  events(event: string): Frame[] {
    return this.frames.filter((f) => f.event === event);
  }

  /** Waits until `count` frames of `event` arrived; they are returned. */
  waitFor(event: string, count = 1): Promise<Frame[]> {
    return vi.waitFor(() => {
      const found = this.events(event);
      expect(found.length, `${event} frames`).toBeGreaterThanOrEqual(count);
      return found;
    }, SOCKET_WAIT);
  }

  send(text: string): void {
    this.ws.send(text);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** The socket URL with `?token=` as the client sets it (other parameters kept). */
export function withToken(socketUrl: string, token: string): string {
  const url = new URL(socketUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

/** A new subscriber of `env` and a session token for it (until the session route mints them). */
export async function subscriberSession(
  env: TestEnv,
  contextKeys: string[] = [],
  subscriberId = `sub-${rand()}`,
): Promise<{ session: SubscriberSession; token: string; client: ApiClient }> {
  const created = await env.client.post('/v2/subscribers', { subscriberId, firstName: 'Ada', lastName: 'Lovelace' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const session: SubscriberSession = { ...env.scope, subscriberId, subscriberDbId: created.body._id, contextKeys };
  return { session, token: await signSessionToken(session), client: env.client };
}
