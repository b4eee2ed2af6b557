import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { tableName } from '../config.ts';
import { dataKeys, open, seal } from '../crypto/data-keys.ts';
import { db } from '../store/client.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';

// The secret that signs subscriber session tokens: one per stage, made on first use and kept in
// the table sealed under a data key of the secrets key (KMS in AWS, the local key file
// locally), so it is never in plain text at rest and never an API key. Each container reads
// and opens it once.

let loaded: Promise<Uint8Array> | undefined;

export function sessionSigningKey(): Promise<Uint8Array> {
  loaded ??= readOrCreate().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function readOrCreate(): Promise<Uint8Array> {
  const stored = await getItem(keys.sessionSigningKey(), { consistent: true });
  if (stored) return unseal(stored);
  const { plaintext, wrapped } = await dataKeys().generate();
  const item = { ...keys.sessionSigningKey(), type: 'SessionSigningKey', dataKey: wrapped, secret: seal(plaintext, randomBytes(32)), createdAt: new Date().toISOString() };
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return unseal(item);
  } catch (error) {
    // Another container made it first: use theirs.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const theirs = await getItem(keys.sessionSigningKey(), { consistent: true });
    if (!theirs) throw error;
    return unseal(theirs);
  }
}

async function unseal(item: Record<string, unknown>): Promise<Uint8Array> {
  const dataKey = await dataKeys().unwrap(item.dataKey as string);
  return new Uint8Array(open(dataKey, item.secret as string));
}
