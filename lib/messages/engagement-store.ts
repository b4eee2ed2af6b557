import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { conditionalWrite } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';
import { TABLE } from '../store/table.ts';

// The engagement a message records (lib/engagement): each an atomic conditional update of the
// message's own item, so a repeated request never moves a first time and a count never loses a
// click. Neither touches `stateVersion` or the state fields, which inbox marks own
// (repository.ts): the two never undo each other. Items past their retention (not yet deleted
// by DynamoDB's TTL) are not changed.

const KEPT = 'attribute_exists(pk) AND (attribute_not_exists(#ttl) OR #ttl >= :now)';

export interface ClickOutcome {
  /** Whether this click was the message's first. */
  first: boolean;
  clickCount: number;
}

/** Counts a click on the link to `url` at `at`; the first sets `clicked`, which no later click changes. Undefined: no such message. */
export async function addClick(
  scope: EnvScope,
  subscriberId: string,
  messageId: string,
  url: string,
  at: Date,
): Promise<ClickOutcome | undefined> {
  const when = at.toISOString();
  const outcome = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.message(scope, subscriberId, messageId),
        UpdateExpression: [
          'SET clicked = if_not_exists(clicked, :at), clickCount = if_not_exists(clickCount, :zero) + :one',
          'lastClickedAt = :at, lastClickedUrl = :url, updatedAt = :at',
        ].join(', '),
        ConditionExpression: KEPT,
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':at': when, ':url': url, ':zero': 0, ':one': 1, ':now': Math.floor(at.getTime() / 1000) },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!outcome.written) return undefined;
  const item = outcome.output.Attributes ?? {};
  // The count moves atomically: exactly one click sees 1.
  return { first: item.clickCount === 1, clickCount: item.clickCount as number };
}

export type OpenOutcome = 'first' | 'again' | 'missing';

/** Sets `opened` at `at` unless it is set already. */
export async function setOpened(scope: EnvScope, subscriberId: string, messageId: string, at: Date): Promise<OpenOutcome> {
  const outcome = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.message(scope, subscriberId, messageId),
        UpdateExpression: 'SET opened = :at, updatedAt = :at',
        ConditionExpression: `${KEPT} AND attribute_not_exists(opened)`,
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':at': at.toISOString(), ':now': Math.floor(at.getTime() / 1000) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (outcome.written) return 'first';
  return outcome.item?.opened ? 'again' : 'missing';
}
