import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import type { Key } from '#lib/store/keys.ts';
import { TTL_DELETION_IDENTITY } from '#lib/store/retention.ts';
import { TABLE } from '#lib/store/table.ts';

// DynamoDB's TTL deletion, which DynamoDB Local does not do (it keeps expired items for ever).
// DynamoDB deletes an item some time after its `ttl` has passed, and the stream's REMOVE record
// of that deletion names DynamoDB's service principal as its `userIdentity`: that is how stream
// consumers tell an expiry from a delete someone asked for. A DeleteItem can carry no such mark,
// so the emulation stamps the item first (one MODIFY record, which the local stream poller
// drops) and then deletes it; the poller hands the REMOVE over as Lambda would from DynamoDB:
// with the service principal and the item's image without the stamp. Locally nothing finds
// expired items by itself (that would take a Scan): the caller names them.

/** The stamp's attribute: only this module writes it, only the local stream poller reads it. */
const EXPIRY_STAMP = '__localTtlExpiry';

/**
 * Deletes, as DynamoDB's TTL would, those of the items whose `ttl` is before `now` (epoch
 * seconds, default the clock's); items not expired (or gone) are left alone. Returns the keys deleted.
 */
export async function expireItems(itemKeys: readonly Key[], now: number = Math.floor(Date.now() / 1000)): Promise<Key[]> {
  const deleted: Key[] = [];
  for (const key of itemKeys) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    const ttl = Item?.[TABLE.ttlAttribute];
    if (typeof ttl !== 'number' || ttl >= now) continue;
    try {
      // Conditioned on the ttl read: an item rewritten meanwhile is judged again, not deleted.
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET #stamp = :true',
          ConditionExpression: '#ttl = :ttl',
          ExpressionAttributeNames: { '#stamp': EXPIRY_STAMP, '#ttl': TABLE.ttlAttribute },
          ExpressionAttributeValues: { ':true': true, ':ttl': ttl },
        }),
      );
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key,
          ConditionExpression: 'attribute_exists(#stamp)',
          ExpressionAttributeNames: { '#stamp': EXPIRY_STAMP },
        }),
      );
      deleted.push(key);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return deleted;
}

type Image = Record<string, AttributeValue> | undefined;
const stamped = (image: Image) => image?.[EXPIRY_STAMP] !== undefined;

/**
 * A stream record as DynamoDB would have written it for an emulated expiry: the stamp's MODIFY
 * does not exist (undefined), the REMOVE carries the service principal and the image as it was.
 * Any other record is returned as it is.
 */
export function asTtlDeletion(record: DynamoDBRecord): DynamoDBRecord | undefined {
  const { OldImage, NewImage } = record.dynamodb ?? {};
  if (record.eventName === 'MODIFY' && stamped(NewImage) && !stamped(OldImage)) return undefined;
  if (record.eventName !== 'REMOVE' || !stamped(OldImage)) return record;
  const { [EXPIRY_STAMP]: _stamp, ...image } = OldImage!;
  return { ...record, userIdentity: { ...TTL_DELETION_IDENTITY }, dynamodb: { ...record.dynamodb, OldImage: image } };
}
