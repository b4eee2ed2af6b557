import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { tableName } from '../config.ts';
import { dataKeys, open, seal } from '../crypto/data-keys.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';

// The secret that signs subscriber session tokens: one per stage, made on first use and kept in
// the table sealed under a data key of the secrets key (KMS in AWS, the local key file
// locally), so it is never in plain text at rest and never an API key. Each container reads
// and opens it once.

let loaded: Promise<Uint8Array | undefined> | undefined;

/**
 * The key, made first if `create` (only the session route signs, and only it may write); without
 * it, undefined while no session was ever opened (then no token can be valid).
 */
export async function sessionSigningKey(options: { create: true }): Promise<Uint8Array>;
export async function sessionSigningKey(options?: { create?: false }): Promise<Uint8Array | undefined>;
export async function sessionSigningKey(options: { create?: boolean } = {}): Promise<Uint8Array | undefined> {
  loaded ??= read();
  let key: Uint8Array | undefined;
  try {
    key = await loaded;
  } catch (error) {
    loaded = undefined;
    throw error;
  }
  if (key) return key;
  loaded = undefined;
  if (!options.create) return undefined;
  key = await create();
  loaded = Promise.resolve(key);
  return key;
}

async function read(): Promise<Uint8Array | undefined> {
  const stored = await getItem(keys.sessionSigningKey(), { consistent: true });
  return stored && unseal(stored);
}

async function create(): Promise<Uint8Array> {
  const { plaintext, wrapped } = await dataKeys().generate();
  const item = {
    ...keys.sessionSigningKey(),
    type: 'SessionSigningKey',
    dataKey: wrapped,
    secret: seal(plaintext, randomBytes(32)),
    createdAt: new Date().toISOString(),
  };
  if (
    await writeIf(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })))
  ) {
    return unseal(item);
  }
  // Another container made it first: use theirs.
  const theirs = await getItem(keys.sessionSigningKey(), { consistent: true });
  if (!theirs) throw new Error('The session signing key exists but could not be read');
  return unseal(theirs);
}

async function unseal(item: Record<string, unknown>): Promise<Uint8Array> {
  const dataKey = await dataKeys().unwrap(item.dataKey as string);
  return new Uint8Array(open(dataKey, item.secret as string));
}
