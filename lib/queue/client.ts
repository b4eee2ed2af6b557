import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV, optional } from '../config.ts';
import { withoutSdkLogging } from '../sdk-logging.ts';
import { sdkCallBounds } from '../sdk-timeouts.ts';

// One SQS client per process, created on first use (the local runtime sets the endpoint first).
// Against an emulator the queue URLs name hosts that do not resolve, so calls must go to the
// configured endpoint rather than to the queue URL's host.
let client: SQSClient | undefined;

export function sqs(): SQSClient {
  if (!client) {
    client = withoutSdkLogging(new SQSClient({ useQueueUrlAsEndpoint: !optional(ENV.sqsEndpoint), ...sdkCallBounds() }));
  }
  return client;
}
