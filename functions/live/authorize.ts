import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { admitSocket } from '#lib/live/admit.ts';

// The WebSocket API's $connect authorizer: `?token=` must be a session token of ours. Its answer
// is an IAM policy; the session goes in its context, which API Gateway passes to every route of
// the connection. A token that opens nothing is denied (403) rather than thrown on, so bad
// tokens do not count as function errors; no token at all is refused by API Gateway (401)
// before this runs, since the token is the authorizer's identity source.
export async function handler(event: APIGatewayRequestAuthorizerEvent, context: Context): Promise<APIGatewayAuthorizerResult> {
  logger.addContext(context);
  const admitted = await admitSocket(event.queryStringParameters?.token);
  return {
    principalId: admitted?.subscriberDbId ?? 'anonymous',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: admitted ? 'Allow' : 'Deny', Resource: event.methodArn }],
    },
    ...(admitted && { context: admitted }),
  };
}
