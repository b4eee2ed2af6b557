import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from '#lib/sdk-logging.ts';

// DynamoDB clients of the bench's own, which the request meter on the service's client
// (request-meter.ts) does not see: the raw writes the service is compared with (floor.ts,
// write-bound.ts), and the bench's reads while it waits (has a message arrived yet? how many are
// there?), which a section metered meanwhile would otherwise bill to the work it measures. Made
// once the stack has set the emulator's endpoint.

/**
 * A new client of its own (a measurement with a connection pool of its own), made as the
 * service's clients are (without the SDK's logger middleware), so it pays no CPU they do not.
 */
export function rawDocumentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(withoutSdkLogging(new DynamoDBClient({})));
}

let probes: DynamoDBDocumentClient | undefined;

/** The one client the bench's polls share. */
export function probeDb(): DynamoDBDocumentClient {
  probes ??= rawDocumentClient();
  return probes;
}
