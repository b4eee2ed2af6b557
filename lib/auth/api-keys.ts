import { createHash, randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { getItem } from '../store/get-item.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { dataKeys, open, seal } from '../crypto/data-keys.ts';
import { queryAll } from '../store/query-pages.ts';
import type { Caller } from './caller.ts';

// API keys are looked up by their SHA-256, which maps to one environment of one organization.
// The key itself is kept only sealed (envelope encryption under the secrets key, like integration
// secrets): the inbox checks a subscriber's HMAC hash, which the customer's backend makes with
// the key, against every key of the environment.
//
// A key replaced by a newer one (lib/accounts/api-keys.ts) carries `expiresAt`: it works until
// then and never after. DynamoDB's TTL deletes the item later, up to days late, so every reader
// checks the time itself.

/** An API key item as stored (its lookup key and index key aside). */
export interface ApiKeyItem extends Caller {
  hash: string;
  /** The key's last four characters, to tell keys apart in a list (absent on keys issued before). */
  keyHint?: string;
  createdAt: string;
  /** When a replaced key stops working; absent while the key has no end. */
  expiresAt?: string;
  dataKey?: string;
  sealedKey?: string;
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Whether the key still authenticates at `now`. */
export const isLive = (item: { expiresAt?: string }, now = Date.now()): boolean =>
  item.expiresAt === undefined || Date.parse(item.expiresAt) > now;

/** The item of a new key for the environment, and the key: the only time it is visible. */
export async function newApiKeyItem(owner: Caller): Promise<{ apiKey: string; item: Record<string, unknown> }> {
  const apiKey = randomBytes(24).toString('hex');
  const hash = hashApiKey(apiKey);
  const { plaintext, wrapped } = await dataKeys().generate();
  const item = {
    ...keys.apiKey(hash),
    ...keys.apiKeyOfEnvironmentIndex(owner, hash),
    type: 'ApiKey',
    ...owner,
    hash,
    keyHint: apiKey.slice(-4),
    dataKey: wrapped,
    sealedKey: seal(plaintext, Buffer.from(apiKey, 'utf8')),
    createdAt: new Date().toISOString(),
  };
  return { apiKey, item };
}

/** Creates a key for the environment and returns it; this is the only time it is visible. */
export async function issueApiKey(owner: Caller): Promise<string> {
  const { apiKey, item } = await newApiKeyItem(owner);
  await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return apiKey;
}

/** The environment's keys that still work, oldest first (one Query of gsi1). */
export async function liveApiKeyItems(scope: EnvScope, now = Date.now()): Promise<ApiKeyItem[]> {
  const items = await queryAll({
    IndexName: INDEXES.apiKey.ofEnvironment.name,
    KeyConditionExpression: onIndex(INDEXES.apiKey.ofEnvironment),
    ExpressionAttributeValues: { ':pk': keys.apiKeysOfEnvironment(scope).gsi1pk },
  });
  return items
    .map(toApiKeyItem)
    .filter((item) => isLive(item, now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The key item of a hash, if it exists and still works. */
export async function liveApiKeyItem(hash: string, now = Date.now()): Promise<ApiKeyItem | undefined> {
  // Consistent: a key revoked a moment ago must not be read back from a stale replica.
  const item = await getItem(keys.apiKey(hash), { consistent: true });
  if (!item) return undefined;
  const found = toApiKeyItem(item);
  return isLive(found, now) ? found : undefined;
}

/**
 * The environment's working API keys in clear, for checking HMAC hashes. Keys issued before they
 * were kept sealed have no copy and are left out.
 */
export async function apiKeysOfEnvironment(scope: EnvScope): Promise<string[]> {
  const sealed = (await liveApiKeyItems(scope)).filter((item) => item.sealedKey !== undefined && item.dataKey !== undefined);
  return Promise.all(sealed.map(async (item) => open(await dataKeys().unwrap(item.dataKey!), item.sealedKey!).toString('utf8')));
}

/**
 * The caller an API key authenticates, or undefined. One consistent GetItem per request and no
 * cache, so a revoked key stops at once and a replaced one at its `expiresAt` in every container
 * (docs/performance.md, "Authentication", has what it costs and why there is no authorizer).
 */
export async function findCallerByApiKey(apiKey: string): Promise<Caller | undefined> {
  const item = await liveApiKeyItem(hashApiKey(apiKey));
  return item && { organizationId: item.organizationId, environmentId: item.environmentId, userId: item.userId };
}

function toApiKeyItem(item: Record<string, unknown>): ApiKeyItem {
  return {
    organizationId: item.organizationId as string,
    environmentId: item.environmentId as string,
    userId: item.userId as string,
    // Keys issued before the hash was an attribute carry it as their index sort key.
    hash: (item.hash as string | undefined) ?? (item[INDEXES.apiKey.ofEnvironment.sortKey] as string),
    createdAt: item.createdAt as string,
    ...(typeof item.keyHint === 'string' && { keyHint: item.keyHint }),
    ...(typeof item.expiresAt === 'string' && { expiresAt: item.expiresAt }),
    ...(typeof item.dataKey === 'string' && { dataKey: item.dataKey }),
    ...(typeof item.sealedKey === 'string' && { sealedKey: item.sealedKey }),
  };
}
