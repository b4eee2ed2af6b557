import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { tableName } from '../config.ts';
import { decryptSecrets, encryptSecrets } from '../crypto/secret-fields.ts';
import { BadRequestError, ConflictError, ValidationError } from '../errors.ts';
import { dynamo } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import { TABLE } from '../store/table.ts';
import type { HttpResponse } from './responses.ts';

// The `idempotency-key` header on POST and PATCH, built on Powertools idempotency: one
// conditional write takes the key, the response is stored for 24 hours and replayed for a
// repeat, a repeat while the first still runs gets 409, and the same key with another body 422.
// Keys are scoped to the organization. A request that fails with a fault releases the key (the
// handler throws, Powertools deletes the record) so a retry runs again; 4xx answers are stored
// and replayed like successes. Stored bodies are encrypted: a body can carry secrets (an
// integration's credentials come back decrypted) and the record stays in the table for 24 hours.
// An answer too large for one DynamoDB item (a 422 echoing a huge value, a long path) is sent but
// not kept: its key is released as after a fault, so a retry runs again instead of a 500.

const MAX_KEY_LENGTH = 255;
const RETENTION_SECONDS = 24 * 60 * 60;
/** What a stored response may take of DynamoDB's 400 KB item, leaving room for the key and metadata. */
const MAX_STORED_RESPONSE_BYTES = 350 * 1024;

/** Carries an answer that cannot be kept for replay past Powertools, which then releases the key. */
class UnstorableResponse extends Error {
  constructor(readonly response: HttpResponse) {
    super('Response too large to keep for idempotent replay');
  }
}

interface IdempotentCall {
  organizationId: string;
  key: string;
  body: unknown;
  run: () => Promise<HttpResponse>;
}

/** What the idempotency record keeps: the response, its body sealed under its own data key. */
interface StoredResponse {
  response: HttpResponse;
  dataKey?: string;
}

async function sealResponse(response: HttpResponse): Promise<StoredResponse> {
  if (response.body === undefined) return { response };
  const { groups, dataKey } = await encryptSecrets({ response: { body: response.body } }, { response: ['body'] });
  return { response: { ...response, body: groups.response.body as string }, ...(dataKey && { dataKey }) };
}

async function openResponse(stored: StoredResponse | HttpResponse): Promise<HttpResponse> {
  if (!('response' in stored)) return stored; // a record written before bodies were sealed
  if (stored.response.body === undefined) return stored.response;
  const { response } = await decryptSecrets({ response: { body: stored.response.body } }, stored.dataKey);
  return { ...stored.response, body: response.body as string };
}

let idempotentRun: ((call: IdempotentCall) => Promise<StoredResponse>) | undefined;
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
  idempotentRun = makeIdempotent(
    async (call: IdempotentCall) => {
      const response = await call.run();
      const stored = await sealResponse(response);
      if (Buffer.byteLength(JSON.stringify(stored)) > MAX_STORED_RESPONSE_BYTES) throw new UnstorableResponse(response);
      return stored;
    },
    {
      persistenceStore,
      config,
      keyPrefix: keys.idempotency.prefix,
    },
  );
  return idempotentRun;
}

export async function runIdempotently(
  call: Omit<IdempotentCall, 'run'>,
  context: Context,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  if (call.key.length > MAX_KEY_LENGTH) {
    throw new BadRequestError(`idempotencyKey "${call.key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`);
  }
  const execute = wrapped();
  config?.registerLambdaContext(context);
  let ran = false;
  try {
    const response = await openResponse(
      await execute({
        ...call,
        run: () => {
          ran = true;
          return run();
        },
      }),
    );
    const headers: Record<string, string> = { ...response.headers, 'Idempotency-Key': call.key };
    if (!ran) headers['Idempotency-Replay'] = 'true';
    return { ...response, headers };
  } catch (error) {
    if (error instanceof UnstorableResponse) {
      return { ...error.response, headers: { ...error.response.headers, 'Idempotency-Key': call.key } };
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ConflictError(`Request with key "${call.key}" is currently being processed. Please retry after 1 second`, {
        'Retry-After': '1',
        'Idempotency-Key': call.key,
      });
    }
    if (error instanceof IdempotencyValidationError) {
      const message = `Request with key "${call.key}" is being reused for a different body`;
      throw new ValidationError({ 'Idempotency-Key': { messages: [message], value: call.key } }, message, { 'Idempotency-Key': call.key });
    }
    throw error;
  }
}
