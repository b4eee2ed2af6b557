import { MAX_CONNECTION_SECONDS, MAX_FRAME_BYTES } from './gateway-limits.ts';

// The socket.io 4 wire protocol (Engine.IO v4 packets carrying socket.io v5 packets), as the
// legacy in-app clients speak it over a WebSocket (`transports: ['websocket']`, no polling):
// enough of it to open the connection, join the default namespace and send events. Each text
// frame is one packet: its first digit the Engine.IO type (0 open, 1 close, 2 ping, 3 pong,
// 4 message), a message's second digit the socket.io type (0 CONNECT, 1 DISCONNECT, 2 EVENT,
// 4 CONNECT_ERROR), then `<namespace>,` unless it is `/`, then JSON.

/** A connection speaks socket.io when its upgrade request says so (socket.io-client always does). */
export function isSocketIoHandshake(query: Record<string, string | undefined> | null | undefined): boolean {
  return query?.EIO === '4' && query.transport === 'websocket';
}

/**
 * The heartbeat the open packet announces. The server never pings (no function runs between
 * frames), so the client must not time out on its own before API Gateway ends the connection
 * (2 hours); a quiet socket is closed by API Gateway's idle timeout instead, and the client
 * reconnects (docs/inbox.md).
 */
export const PING_INTERVAL_MS = MAX_CONNECTION_SECONDS * 1000;
export const PING_TIMEOUT_MS = 20_000;

/** Engine.IO's open packet: the first frame of every connection, before which the client sends nothing. */
export const openPacket = (sid: string): string =>
  `0${JSON.stringify({ sid, upgrades: [], pingInterval: PING_INTERVAL_MS, pingTimeout: PING_TIMEOUT_MS, maxPayload: MAX_FRAME_BYTES })}`;

const nspPrefix = (nsp: string) => (nsp === '/' ? '' : `${nsp},`);

export const connectAck = (nsp: string, sid: string): string => `40${nspPrefix(nsp)}${JSON.stringify({ sid })}`;

export const connectError = (nsp: string, message: string): string => `44${nspPrefix(nsp)}${JSON.stringify({ message })}`;

export const eventPacket = (event: string, data: unknown): string => `42${JSON.stringify([event, data])}`;

export type ClientPacket =
  | { type: 'connect'; nsp: string; auth: unknown }
  | { type: 'disconnect'; nsp: string }
  /** Pings, pongs, events and anything else the server has nothing to answer to. */
  | { type: 'other' };

/** One frame the client sent. */
export function parseClientPacket(frame: string | undefined): ClientPacket {
  if (frame === undefined || !frame.startsWith('4')) return { type: 'other' };
  const kind = frame[1];
  if (kind !== '0' && kind !== '1') return { type: 'other' };
  let rest = frame.slice(2);
  let nsp = '/';
  if (rest.startsWith('/')) {
    const comma = rest.indexOf(',');
    nsp = comma === -1 ? rest : rest.slice(0, comma);
    rest = comma === -1 ? '' : rest.slice(comma + 1);
  }
  if (kind === '1') return { type: 'disconnect', nsp };
  let auth: unknown;
  try {
    auth = rest === '' ? undefined : (JSON.parse(rest) as unknown);
  } catch {
    auth = undefined;
  }
  return { type: 'connect', nsp, auth };
}

/** The token a CONNECT packet carries (`<NotificationCenter />`: `auth: {token}`). */
export const tokenOfAuth = (auth: unknown): string | undefined =>
  auth !== null && typeof auth === 'object' && typeof (auth as { token?: unknown }).token === 'string'
    ? (auth as { token: string }).token
    : undefined;
