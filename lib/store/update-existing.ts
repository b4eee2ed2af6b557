import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import { writeIf } from './conditions.ts';
import { ExpressionBuilder } from './expression.ts';
import type { Key } from './keys.ts';

// Changing or deleting an item only if it exists, in one conditional write (no read first, so
// no race with a concurrent delete): what a PATCH or DELETE of a resource by its key does.

/** Sets the fields given (undefined ones are left alone); the item after, or undefined when there is no such item. */
export async function setOnExisting(key: Key, fields: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const e = new ExpressionBuilder();
  const set = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => e.equals(field, value));
  if (set.length === 0) throw new Error('setOnExisting needs at least one field');
  let item: Record<string, unknown> | undefined;
  await writeIf(async () => {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${set.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...e.placeholders(),
        ReturnValues: 'ALL_NEW',
      }),
    );
    item = Attributes;
  });
  return item;
}

/** False when there was no such item. */
export function deleteExisting(key: Key): Promise<boolean> {
  return writeIf(() => db().send(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' })));
}
