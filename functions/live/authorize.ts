import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { admitConnection } from '#lib/live/admit.ts';

// The WebSocket API's $connect authorizer (lib/live/admit.ts). Its answer is an IAM policy; the
// context (the session, the protocol) API Gateway passes to every route of the connection. No
// token at all is API Gateway's 401 (a thrown `Unauthorized`); a token that opens nothing is
// denied (403) rather than thrown on, so bad tokens do not count as function errors.
export async function handler(event: APIGatewayRequestAuthorizerEvent, context: Context): Promise<APIGatewayAuthorizerResult> {
  logger.addContext(context);
  const admitted = await admitConnection(event.queryStringParameters);
  if (!admitted.allow && admitted.reason === 'no-token') throw new Error('Unauthorized');
  return {
    principalId: (admitted.allow && admitted.context.subscriberDbId) || 'anonymous',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: admitted.allow ? 'Allow' : 'Deny', Resource: event.methodArn }],
    },
    ...(admitted.allow && { context: admitted.context }),
  };
}
