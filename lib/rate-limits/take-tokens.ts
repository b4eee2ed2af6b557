import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { conditionalWrite } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { TABLE } from '../store/table.ts';
import { capacityMicros as capacityOf, decide, isFull, taken, tokensOf, type FullAt, type Verdict } from './bucket.ts';
import type { BucketPolicy, RateLimitCost } from './policy.ts';

// Takes a request's tokens from the environment's bucket item in one conditional UpdateItem,
// never read first: the bucket is either full (no item, or its `fullAt` is past: set it to now +
// the request's tokens) or draining (`fullAt` ahead: add the tokens, if the bucket then still
// holds them). Each write states the state it assumes in its condition, so concurrent requests
// cannot both take the last tokens. Which of the two to send is guessed from the last `fullAt`
// this container saw; a wrong guess fails its condition, which returns the item as it is, and
// the request is then decided on that (refused with no further write, or the other write sent).
// A `fullAt` further ahead than a refill time counts as full (bucket.ts, isFull).
// The item's TTL is when the bucket is full at the latest: an item gone is a full bucket.

const MAX_WRITES = 4;
const MAX_HINTS = 1_000;
/** The last `fullAt` this container saw of each bucket: what the next write guesses from. */
const hints = new Map<string, number>();

export async function takeTokens(scope: EnvScope, policy: BucketPolicy, cost: RateLimitCost, now = Date.now() * 1000): Promise<Verdict> {
  const key = keys.rateLimitBucket(scope, policy.category);
  const hintKey = key.pk;
  let known: FullAt = hints.get(hintKey);
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const verdict = decide(known, now, policy, cost);
    if (!verdict.allowed) return verdict;
    const outcome = await write(key, policy, cost, now, !isFull(known, now, policy));
    remember(hintKey, outcome.fullAt);
    if (outcome.written) return taken(outcome.fullAt!, now, policy, cost);
    known = outcome.fullAt;
  }
  // Only a bucket that other containers keep moving across `now` gets here; refusing is safe.
  return { allowed: false, remaining: 0, resetSeconds: 1, fullAt: known };
}

async function write(key: { pk: string; sk: string }, policy: BucketPolicy, cost: RateLimitCost, now: number, draining: boolean) {
  const tokensMicros = tokensOf(policy, cost) * policy.tokenMicros;
  const capacityMicros = capacityOf(policy);
  const common = {
    TableName: tableName(),
    Key: key,
    ExpressionAttributeNames: { '#type': 'type', '#ttl': TABLE.ttlAttribute },
    ReturnValues: 'UPDATED_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const ttl = Math.ceil((now + capacityMicros) / 1_000_000) + 1;
  const command = draining
    ? new UpdateCommand({
        ...common,
        UpdateExpression: 'SET fullAt = fullAt + :tokens, #type = :type, #ttl = :ttl',
        ConditionExpression: 'fullAt > :now AND fullAt <= :latest',
        ExpressionAttributeValues: {
          ':tokens': tokensMicros,
          ':now': now,
          ':latest': now + capacityMicros - tokensMicros,
          ':type': 'RateLimitBucket',
          ':ttl': ttl,
        },
      })
    : new UpdateCommand({
        ...common,
        UpdateExpression: 'SET fullAt = :fullAt, #type = :type, #ttl = :ttl',
        // Full as bucket.ts's isFull has it: no state, past, or beyond a refill time ahead.
        ConditionExpression: 'attribute_not_exists(fullAt) OR fullAt <= :now OR fullAt > :skewed',
        ExpressionAttributeValues: {
          ':fullAt': now + tokensMicros,
          ':now': now,
          ':skewed': now + capacityMicros,
          ':type': 'RateLimitBucket',
          ':ttl': ttl,
        },
      });
  const outcome = await conditionalWrite(() => db().send(command));
  if (outcome.written) return { written: true, fullAt: outcome.output.Attributes?.fullAt as number };
  // The item as it is, in DynamoDB's own form.
  const old = outcome.item?.fullAt?.N;
  return { written: false, fullAt: old === undefined ? undefined : Number(old) };
}

function remember(hintKey: string, fullAt: FullAt) {
  hints.delete(hintKey);
  if (fullAt === undefined) return;
  hints.set(hintKey, fullAt);
  if (hints.size > MAX_HINTS) hints.delete(hints.keys().next().value!);
}
