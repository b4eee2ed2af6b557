import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { ENV, required } from '../config.ts';
import { withoutSdkLogging } from '../sdk-logging.ts';
import { CACHED_MIDDLEWARE } from '../sdk-middleware-cache.ts';
import { sdkCallBounds } from '../sdk-timeouts.ts';

// Frames go to a socket through API Gateway's management API (PostToConnection on the WebSocket
// API's callback URL). The same client talks to the local runtime's socket server, which serves
// that API too (infra/local/websocket-api.ts), so nothing here knows where it runs.

let client: ApiGatewayManagementApiClient | undefined;

function managementApi(): ApiGatewayManagementApiClient {
  if (!client) {
    client = withoutSdkLogging(
      new ApiGatewayManagementApiClient({
        endpoint: required(ENV.liveCallbackUrl),
        ...sdkCallBounds(),
        // Every frame is one PostToConnection.
        ...CACHED_MIDDLEWARE,
      }),
    );
  }
  return client;
}

/**
 * What became of a frame: sent; `gone`, the socket closed (410: its connection item is stale);
 * `too-large`, over API Gateway's 128 KB (the client gets it on its next fetch instead).
 * Anything else (throttling past the SDK's retries, a fault) throws.
 */
export type FrameOutcome = 'sent' | 'gone' | 'too-large';

export async function postFrame(connectionId: string, frame: string): Promise<FrameOutcome> {
  try {
    await managementApi().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(frame) }));
    return 'sent';
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'GoneException') return 'gone';
    if (name === 'PayloadTooLargeException') return 'too-large';
    throw error;
  }
}
