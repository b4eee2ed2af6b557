import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type Key } from '../store/keys.ts';
import type { TransactItem } from '../store/transact.ts';
import type { EnvScope } from '../scope.ts';

// Storage of throttles: one counter item per series (workflow, step, subscriber, throttle key
// value), holding the runs counted in its window, the window's start and its end. The throttle step reads
// it, decides, and writes the new count in the transaction of its decision, conditioned on the
// count read, so concurrent runs and redeliveries count each execution exactly once.

/** The counter outlives its window briefly, as in the reference. */
const TTL_BUFFER_S = 30;

export interface ThrottleSeries {
  scope: EnvScope;
  workflowDbId: string;
  stepId: string;
  subscriberId: string;
  /** The throttle key's value in the payload; '' without a throttle key. */
  keyValue: string;
}

export interface ThrottleCounter {
  count: number;
  /** When the window opened (its first counted run); absent on counters stored before it was kept. */
  windowStart?: Date;
  windowEnd: Date;
}

const counterKey = (s: ThrottleSeries): Key => keys.throttleWindow(s.scope, s.workflowDbId, s.stepId, s.subscriberId, s.keyValue);

/** The series' counter as stored (its window may have ended), read consistently. */
export async function readCounter(series: ThrottleSeries): Promise<ThrottleCounter | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: counterKey(series), ConsistentRead: true }));
  return (
    Item && {
      count: Item.count as number,
      ...(typeof Item.windowStart === 'string' && { windowStart: new Date(Item.windowStart) }),
      windowEnd: new Date(Item.windowEnd as string),
    }
  );
}

/** Stores `counter`, if the stored one is still `read` (undefined: there was none). */
export function counterWrite(series: ThrottleSeries, counter: ThrottleCounter, read: ThrottleCounter | undefined): TransactItem {
  const { count, windowStart, windowEnd } = counter;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...counterKey(series),
        type: 'ThrottleWindow',
        count,
        ...(windowStart && { windowStart: windowStart.toISOString() }),
        windowEnd: windowEnd.toISOString(),
        ttl: Math.ceil(windowEnd.getTime() / 1000) + TTL_BUFFER_S,
      },
      ConditionExpression: read ? '#c = :read' : 'attribute_not_exists(pk)',
      ...(read && { ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':read': read.count } }),
    },
  };
}
