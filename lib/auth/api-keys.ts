import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import type { Caller } from './caller.ts';

// API keys are never stored: only their SHA-256, which maps to one environment of one
// organization. A leaked table therefore leaks no usable key.

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Creates a key for the environment and returns it; this is the only time it is visible. */
export async function issueApiKey(owner: Caller): Promise<string> {
  const apiKey = randomBytes(24).toString('hex');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.apiKey(hashApiKey(apiKey)), type: 'ApiKey', ...owner, createdAt: new Date().toISOString() },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return apiKey;
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
