import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';

// Reads of a subscriber's inbox indexes (lib/store/keys.ts: gsi6 unseen, gsi7 inbox, gsi8 unread).
// Messages themselves are read and written by lib/messages/repository.ts.

/** Unread messages of one severity, counted up to `max` (a Query that stops at `max` index entries). */
export async function countUnread(scope: EnvScope, subscriberId: string, ctx: string, severity: string, max: number): Promise<number> {
  const { Count } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi8',
      KeyConditionExpression: 'gsi8pk = :pk AND begins_with(gsi8sk, :severity)',
      ExpressionAttributeValues: { ':pk': keys.unreadInbox(scope, subscriberId, ctx).gsi8pk, ':severity': keys.unreadSeverityPrefix(severity) },
      Select: 'COUNT',
      Limit: max,
    }),
  );
  return Count ?? 0;
}

/**
 * Unseen in-app messages of these context keys, counted up to `max`. The unseen index holds every
 * context's, so the count filters: it reads no more than the subscriber's unseen messages (only
 * `max` of them when no other context has unseen ones).
 */
export async function countUnseen(scope: EnvScope, subscriberId: string, ctx: string, max: number): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi6',
        KeyConditionExpression: 'gsi6pk = :pk',
        FilterExpression: ctx === '' ? '(attribute_not_exists(contextKey) OR contextKey = :ctx)' : 'contextKey = :ctx',
        ExpressionAttributeValues: { ':pk': keys.unseenMessagesOfSubscriber(scope, subscriberId).gsi6pk, ':ctx': ctx },
        Select: 'COUNT',
        Limit: max - count,
        ExclusiveStartKey: startKey,
      }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey && count < max);
  return Math.min(count, max);
}
