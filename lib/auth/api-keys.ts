import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import { dataKeys, open, seal } from '../crypto/data-keys.ts';
import { queryAll } from '../store/query-pages.ts';
import type { Caller } from './caller.ts';

// API keys are looked up by their SHA-256, which maps to one environment of one organization.
// The key itself is kept only sealed (envelope encryption under the secrets key, like integration
// secrets): the inbox checks a subscriber's HMAC hash, which the customer's backend makes with
// the key, against every key of the environment.

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Creates a key for the environment and returns it; this is the only time it is visible. */
export async function issueApiKey(owner: Caller): Promise<string> {
  const apiKey = randomBytes(24).toString('hex');
  const hash = hashApiKey(apiKey);
  const { plaintext, wrapped } = await dataKeys().generate();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.apiKey(hash),
        ...keys.apiKeyOfEnvironmentIndex(owner, hash),
        type: 'ApiKey',
        ...owner,
        dataKey: wrapped,
        sealedKey: seal(plaintext, Buffer.from(apiKey, 'utf8')),
        createdAt: new Date().toISOString(),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return apiKey;
}

/**
 * The environment's API keys in clear, for checking HMAC hashes. Keys issued before they were
 * kept sealed have no copy and are left out.
 */
export async function apiKeysOfEnvironment(scope: EnvScope): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiKeysOfEnvironment(scope).gsi1pk },
  });
  const sealed = items.filter((item) => typeof item.sealedKey === 'string' && typeof item.dataKey === 'string');
  return Promise.all(sealed.map(async (item) => open(await dataKeys().unwrap(item.dataKey as string), item.sealedKey as string).toString('utf8')));
}

// Lambda containers live for many requests: remember recent lookups briefly, as the reference
// does, so a burst of calls costs one read. Short enough that a revoked key stops working soon.
const CACHE_MS = 60_000;
const CACHE_MAX = 1_000;
const cache = new Map<string, { caller: Caller; until: number }>();

export async function findCallerByApiKey(apiKey: string): Promise<Caller | undefined> {
  const hash = hashApiKey(apiKey);
  const hit = cache.get(hash);
  if (hit && hit.until > Date.now()) return hit.caller;

  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash) }));
  if (!Item) return undefined;
  const caller: Caller = {
    organizationId: Item.organizationId as string,
    environmentId: Item.environmentId as string,
    userId: Item.userId as string,
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(hash, { caller, until: Date.now() + CACHE_MS });
  return caller;
}
