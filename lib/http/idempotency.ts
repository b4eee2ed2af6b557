import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { tableName } from '../config.ts';
import { AppError, BadRequestError, ConflictError } from '../errors.ts';
import { dynamo } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import { TABLE } from '../store/table.ts';
import type { HttpResponse } from './responses.ts';

// The `idempotency-key` header on POST and PATCH, built on Powertools idempotency: one
// conditional write takes the key, the response is stored for 24 hours and replayed for a
// repeat, a repeat while the first still runs gets 409, and the same key with another body 422.
// Keys are scoped to the organization. A request that fails with a fault releases the key (the
// handler throws, Powertools deletes the record) so a retry runs again; 4xx answers are stored
// and replayed like successes.

export const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);
const MAX_KEY_LENGTH = 255;
const RETENTION_SECONDS = 24 * 60 * 60;

interface IdempotentCall {
  organizationId: string;
  key: string;
  body: unknown;
  run: () => Promise<HttpResponse>;
}

let idempotentRun: ((call: IdempotentCall) => Promise<HttpResponse>) | undefined;
let config: IdempotencyConfig | undefined;

function wrapped() {
  if (idempotentRun) return idempotentRun;
  config = new IdempotencyConfig({
    eventKeyJmesPath: '[organizationId, key]',
    payloadValidationJmesPath: 'body',
    expiresAfterSeconds: RETENTION_SECONDS,
  });
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: tableName(),
    // Swapped on purpose: Powertools puts its generated key in `sortKeyAttr`, and we want that
    // key as our partition key so records spread over partitions (see lib/store/keys.ts).
    keyAttr: TABLE.sortKey,
    sortKeyAttr: TABLE.partitionKey,
    staticPkValue: keys.idempotency.recordSortKey,
    expiryAttr: TABLE.ttlAttribute,
    awsSdkV3Client: dynamo(),
  });
  idempotentRun = makeIdempotent(async (call: IdempotentCall) => call.run(), {
    persistenceStore,
    config,
    keyPrefix: keys.idempotency.prefix,
  });
  return idempotentRun;
}

export async function runIdempotently(
  call: Omit<IdempotentCall, 'run'>,
  context: Context,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  if (call.key.length > MAX_KEY_LENGTH) {
    throw new BadRequestError(
      `idempotencyKey "${call.key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`,
    );
  }
  const execute = wrapped();
  config?.registerLambdaContext(context);
  let ran = false;
  try {
    const response = await execute({
      ...call,
      run: () => {
        ran = true;
        return run();
      },
    });
    const headers: Record<string, string> = { ...response.headers, 'Idempotency-Key': call.key };
    if (!ran) headers['Idempotency-Replay'] = 'true';
    return { ...response, headers };
  } catch (error) {
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ConflictError(
        `Request with key "${call.key}" is currently being processed. Please retry after 1 second`,
        { 'Retry-After': '1', 'Idempotency-Key': call.key },
      );
    }
    if (error instanceof IdempotencyValidationError) {
      throw new AppError(422, `Request with key "${call.key}" is being reused for a different body`, {
        headers: { 'Idempotency-Key': call.key },
      });
    }
    throw error;
  }
}
