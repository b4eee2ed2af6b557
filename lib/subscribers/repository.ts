import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import type { Subscriber } from './model.ts';

// Storage of subscribers: one item per subscriber, in its own partition, keyed by subscriberId.

export async function getSubscriber(scope: EnvScope, subscriberId: string): Promise<Subscriber | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.subscriber(scope, subscriberId) }));
  if (!Item || Item.deleted) return undefined;
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, version: _v, ...subscriber } = Item;
  return subscriber as Subscriber;
}
