import type { APIGatewayEventWebsocketRequestContextV2, APIGatewayProxyWebsocketEventV2WithRequestContext, Context } from 'aws-lambda';
import type { SubscriberSession } from '../auth/session-token.ts';
import { logger } from '../logger.ts';
import { protocolOfSocket, sessionOfSocket, type SocketProtocol } from './socket-session.ts';

// The Lambda edge of the WebSocket API's routes ($connect, $disconnect, $default), as
// lib/http/handler.ts is for the HTTP API's: the API Gateway event in, the route's input out
// (the connection, the session the $connect authorizer admitted, the frame), its answer back.
// A route answers 200 unless it says otherwise; `body` is sent to the client only by a route
// with a route response ($default, infra/ws-routes.ts).

export type SocketEvent = APIGatewayProxyWebsocketEventV2WithRequestContext<
  APIGatewayEventWebsocketRequestContextV2 & { authorizer?: unknown }
>;

export interface SocketRouteInput {
  connectionId: string;
  /**
   * The session of the connection's `?token=`. Undefined for a socket.io connection that came
   * without one (its token comes in its CONNECT packet), and otherwise only if the connection was
   * not admitted by the authorizer (never in a deployed stack).
   */
  session: SubscriberSession | undefined;
  protocol: SocketProtocol;
  /** The client's text frame ($default); binary frames are not for us and come as undefined. */
  frame: string | undefined;
}

export interface SocketAnswer {
  statusCode: number;
  body?: string;
}

export function socketHandler(action: (input: SocketRouteInput) => Promise<SocketAnswer | void>) {
  return async (event: SocketEvent, context: Context): Promise<SocketAnswer> => {
    logger.addContext(context);
    const { connectionId, routeKey } = event.requestContext;
    const input: SocketRouteInput = {
      connectionId,
      session: sessionOfSocket(event.requestContext.authorizer),
      protocol: protocolOfSocket(event.requestContext.authorizer),
      frame: event.isBase64Encoded ? undefined : event.body,
    };
    try {
      return (await action(input)) ?? { statusCode: 200 };
    } catch (error) {
      logger.error('Socket route failed', { routeKey, connectionId, error: error as Error });
      return { statusCode: 500 };
    }
  };
}
