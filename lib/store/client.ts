import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// One client per process, created on first use so that the local runtime and tests can set the
// endpoint (AWS_ENDPOINT_URL_DYNAMODB, read by the SDK itself) before anything connects.
let documentClient: DynamoDBDocumentClient | undefined;
let rawClient: DynamoDBClient | undefined;

export function dynamo(): DynamoDBClient {
  rawClient ??= new DynamoDBClient({});
  return rawClient;
}

export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamo(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return documentClient;
}
