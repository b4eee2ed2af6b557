import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../errors.ts';
import { withoutSdkLogging } from '../sdk-logging.ts';
import { sdkCallBounds } from '../sdk-timeouts.ts';

// One client per process, created on first use so that the local runtime and tests can set the
// endpoint (AWS_ENDPOINT_URL_DYNAMODB, read by the SDK itself) before anything connects.
let documentClient: DynamoDBDocumentClient | undefined;
let rawClient: DynamoDBClient | undefined;

/** DynamoDB's limit on one item, attribute names and values together. */
export const MAX_ITEM_BYTES = 400 * 1024;

/**
 * A write the table refuses because the item would exceed 400 KB: what the caller sent is too
 * large to keep (bodies under the route's limit can still make such an item), so a 413.
 */
export class ItemTooLargeError extends AppError {
  constructor() {
    super(413, `The data to store is larger than the ${MAX_ITEM_BYTES / 1024} KB a record may hold`);
  }
}

const ITEM_TOO_LARGE = /item size (to update )?has exceeded the maximum allowed size/i;

function isItemTooLarge(error: unknown): boolean {
  const { name, message, CancellationReasons } = (error ?? {}) as {
    name?: string;
    message?: string;
    CancellationReasons?: { Message?: string }[];
  };
  if (name === 'ValidationException') return ITEM_TOO_LARGE.test(message ?? '');
  if (name === 'TransactionCanceledException') return CancellationReasons?.some((r) => ITEM_TOO_LARGE.test(r.Message ?? '')) ?? false;
  return false;
}

export function dynamo(): DynamoDBClient {
  if (!rawClient) {
    rawClient = withoutSdkLogging(new DynamoDBClient(sdkCallBounds()));
    // On the shared middleware stack, so the document client and Powertools' writes see it too.
    rawClient.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (isItemTooLarge(error)) throw new ItemTooLargeError();
          throw error;
        }
      },
      { step: 'initialize', name: 'itemTooLargeMiddleware' },
    );
  }
  return rawClient;
}

export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamo(), {
    // Maps are told from class instances by `value.constructor.name === 'Object'`, so a plain
    // object that holds a `constructor` key of its own (free-form `data` may) counts as a class
    // instance: converting those to maps too keeps it storable (no class instance is ever stored).
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
  return documentClient;
}
