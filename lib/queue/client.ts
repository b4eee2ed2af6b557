import { SQSClient } from '@aws-sdk/client-sqs';

// One SQS client per process, created on first use (the local runtime sets the endpoint first).
// Against an emulator the queue URLs name hosts that do not resolve, so calls must go to the
// configured endpoint rather than to the queue URL's host.
let client: SQSClient | undefined;

export function sqs(): SQSClient {
  client ??= new SQSClient({ useQueueUrlAsEndpoint: !process.env.AWS_ENDPOINT_URL_SQS });
  return client;
}
