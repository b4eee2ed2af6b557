import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
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
  try {
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
    return Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** False when there was no such item. */
export async function deleteExisting(key: Key): Promise<boolean> {
  try {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
