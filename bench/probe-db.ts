import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from '#lib/sdk-logging.ts';

// The bench's own reads of the table (has a message arrived yet? how many are there?) go through a
// client of their own, so the request meter on the service's client (request-meter.ts) counts only
// what the service does: a section that polls while it is metered would otherwise bill its polls
// to the work it measures. Made on first use, once the stack has set the emulator's endpoint.

let client: DynamoDBDocumentClient | undefined;

export function probeDb(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(withoutSdkLogging(new DynamoDBClient({})));
  return client;
}
