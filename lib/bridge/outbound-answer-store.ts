import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import { TABLE } from '../store/table.ts';

// The answer to an outbound call (outbound-request.ts): one short-lived item per request id, written once
// by the outbound consumer (a redelivered request keeps the first answer) and read by the
// handler that waits for it. Kept as JSON text: an answer's body is whatever the customer sent.

export type OutboundOutcome =
  { ok: true; status: number; body: unknown } | { ok: false; message: string; status?: number; code?: string; data?: unknown };

/** Answers outlive their waiter by far; DynamoDB deletes them after this. */
const KEPT_SECONDS = 15 * 60;
/** Room under DynamoDB's 400 KB item for the keys and attributes besides the answer. */
const MAX_ANSWER_CHARS = 350_000;

export async function putAnswer(scope: EnvScope, requestId: string, outcome: OutboundOutcome): Promise<void> {
  let text = JSON.stringify(outcome);
  if (text.length > MAX_ANSWER_CHARS) {
    text = JSON.stringify({ ok: false, message: `The answer is larger than ${MAX_ANSWER_CHARS} characters` } satisfies OutboundOutcome);
  }
  await writeIf(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.outboundAnswer(scope, requestId),
          type: 'OutboundAnswer',
          answer: text,
          [TABLE.ttlAttribute]: Math.floor(Date.now() / 1000) + KEPT_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

export async function getAnswer(scope: EnvScope, requestId: string): Promise<OutboundOutcome | undefined> {
  const item = await getItem(keys.outboundAnswer(scope, requestId), { consistent: true });
  return typeof item?.answer === 'string' ? (JSON.parse(item.answer) as OutboundOutcome) : undefined;
}
