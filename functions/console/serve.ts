import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { consoleDir, socketUrl } from '#lib/config.ts';
import { consoleFile } from '#lib/console/static-files.ts';

// infra/routes/console.ts: the console's page and files, and its configuration (where the live
// inbox's sockets are, known to the deployment and not to the build).
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const path = event.rawPath.replace(/^\/(console\/?)?/, '');
  if (path === 'config.json') {
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
      body: JSON.stringify({ socketUrl: socketUrl() ?? '' }),
    };
  }
  const answer = consoleFile({ root: consoleDir(), socketUrl: socketUrl() }, path, event.headers['accept-encoding']);
  return { statusCode: answer.status, headers: answer.headers, body: answer.body, isBase64Encoded: answer.isBase64Encoded };
};
