// The WebSocket API's route table: the inbox sockets of `@novu/js` (PartySocket mode) and of the
// legacy in-app clients (socket.io over WebSocket: lib/live/socketio.ts). The CDK
// stack makes one Lambda per entry, the $connect authorizer included, and wires them into an API
// Gateway WebSocket API; the local runtime serves the same entries from its own socket server
// (infra/local/websocket-api.ts), with events shaped as API Gateway's.

export type SocketRouteKey = '$connect' | '$disconnect' | '$default';

export interface SocketRouteDef {
  routeKey: SocketRouteKey;
  /** Unique; also names the Lambda function. */
  operationId: string;
  /** Module (from the repository root) whose `handler` export serves the route. */
  handler: string;
  /** What the function may do with the table and the secrets key (as the HTTP routes' `access`). */
  access: 'none' | 'read' | 'write';
  /** The function's answer `body` is sent back on the socket (a route response). */
  replies?: boolean;
  /** Queues (infra/queues.ts) the function sends to. */
  sends?: readonly string[];
}

export interface SocketAuthorizerDef {
  operationId: string;
  handler: string;
  access: 'none' | 'read' | 'write';
  /**
   * The query parameter with the session token. Not an identity source: a socket.io connection
   * comes without it (its token is in its CONNECT packet), so the authorizer runs on every
   * connection and answers 401 itself for one that needs a token and has none.
   */
  tokenParameter: string;
}

/** Runs before $connect; its context reaches every route of the connection. */
export const socketAuthorizer: SocketAuthorizerDef = {
  operationId: 'authorizeSocket',
  handler: 'functions/live/authorize.ts',
  // It reads the stage's session signing key (the table, unwrapped with the secrets key).
  access: 'read',
  tokenParameter: 'token',
};

export const socketRoutes: readonly SocketRouteDef[] = [
  // A socket.io connection's open packet is sent by the live consumer ($connect cannot send).
  { routeKey: '$connect', operationId: 'connectSocket', handler: 'functions/live/connect.ts', access: 'write', sends: ['live'] },
  { routeKey: '$disconnect', operationId: 'disconnectSocket', handler: 'functions/live/disconnect.ts', access: 'write' },
  // `@novu/js`'s `ping` heartbeat, answered `pong`; a socket.io CONNECT, which keeps the socket
  // and has the counts sent.
  {
    routeKey: '$default',
    operationId: 'socketMessage',
    handler: 'functions/live/message.ts',
    access: 'write',
    replies: true,
    sends: ['live'],
  },
];
