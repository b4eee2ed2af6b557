import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV, optional } from '../config.ts';
import { SDK_REQUEST_HANDLER } from '../sdk-timeouts.ts';

// One SQS client per process, created on first use (the local runtime sets the endpoint first).
// Against an emulator the queue URLs name hosts that do not resolve, so calls must go to the
// configured endpoint rather than to the queue URL's host.
let client: SQSClient | undefined;

export function sqs(): SQSClient {
  if (!client) {
    client = new SQSClient({ useQueueUrlAsEndpoint: !optional(ENV.sqsEndpoint), requestHandler: SDK_REQUEST_HANDLER });
    // Nothing logs SDK calls, but the SDK's logger middleware filters a copy of every request and
    // response for its no-op logger anyway (as for DynamoDB, lib/store/client.ts).
    client.middlewareStack.remove('loggerMiddleware');
  }
  return client;
}
