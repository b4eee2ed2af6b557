import { ENV, positiveNumber, tableName } from '../config.ts';
import { liveApiKeyItem, liveApiKeyItems, newApiKeyItem, type ApiKeyItem } from '../auth/api-keys.ts';
import type { Caller } from '../auth/caller.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { TABLE } from '../store/table.ts';
import { transact, type TransactItem } from '../store/transact.ts';
import type { ApiKeyView, RegeneratedApiKey } from './api-key-schemas.ts';

// The caller's environment's API keys: listed, regenerated, revoked. Only ever the caller's own
// environment: every operation starts from the caller's scope, and a hash of another
// environment's key is "not found".
//
// A list never shows a key in clear (the reference's does): during a rotation the replaced key
// still works, and if it leaked, showing the new key to its holder would undo the rotation. The
// new key is shown once, in the answer of the regenerate call.

const DEFAULT_GRACE_SECONDS = 24 * 3600;
export const graceSeconds = (): number => positiveNumber(ENV.apiKeyGraceSeconds, DEFAULT_GRACE_SECONDS);

/** The environment's working keys: masked, with their hash (the id a revoke names) and any end. */
export async function listApiKeys(scope: EnvScope): Promise<ApiKeyView[]> {
  return (await liveApiKeyItems(scope)).map(toView);
}

/**
 * A new key for the caller's environment, returned in clear this once. Every key of the
 * environment that had no end now ends after the stage's grace period (one that already ends
 * keeps its earlier end), all in one transaction with the new key.
 */
export async function regenerateApiKey(caller: Caller, now = new Date()): Promise<RegeneratedApiKey[]> {
  // Read from gsi1, which lags a write by a moment: a key made by a regenerate an instant earlier
  // may be missed here and keep no end (it stays a working key of the environment; revoke it).
  const current = (await liveApiKeyItems(caller, now.getTime())).filter((item) => item.expiresAt === undefined);
  const expiresAt = new Date(now.getTime() + graceSeconds() * 1000).toISOString();
  const { apiKey, item } = await newApiKeyItem(caller);
  const ends: TransactItem[] = current.map((old) => ({
    Update: {
      TableName: tableName(),
      Key: keys.apiKey(old.hash),
      UpdateExpression: 'SET expiresAt = if_not_exists(expiresAt, :end), #ttl = if_not_exists(#ttl, :ttl)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
      ExpressionAttributeValues: { ':end': expiresAt, ':ttl': Math.ceil(Date.parse(expiresAt) / 1000) },
    },
  }));
  const refused = await transact([
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...ends,
  ]);
  // A key revoked meanwhile (its Update's condition): the caller sees a conflict and may retry.
  if (refused) throw new ConflictError('The API keys changed while regenerating; try again');
  return [{ _userId: caller.userId, key: apiKey }];
}

/**
 * Deletes one of the environment's keys: it stops working at once, the key in use included. The
 * environment always keeps a key without an end, so the last one cannot go (as the reference's
 * 400); regenerate first, then revoke the replaced key to end its grace period early.
 */
export async function revokeApiKey(scope: EnvScope, hash: string, now = Date.now()): Promise<ApiKeyView[]> {
  const target = await liveApiKeyItem(hash, now);
  if (!target || target.organizationId !== scope.organizationId || target.environmentId !== scope.environmentId) {
    throw new NotFoundError('API key not found');
  }
  const live = await liveApiKeyItems(scope, now);
  const keeper = live.find((item) => item.hash !== hash && item.expiresAt === undefined);
  if (!keeper) throw new BadRequestError('Cannot delete the last remaining API key. Create a new key first.');
  const refused = await transact([
    { Delete: { TableName: tableName(), Key: keys.apiKey(hash), ConditionExpression: 'attribute_exists(pk)' } },
    // Two revokes at once must not each count on the key the other deletes.
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.apiKey(keeper.hash),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(expiresAt)',
      },
    },
  ]);
  if (refused) throw new ConflictError('The API keys changed while revoking; try again');
  // The keys read above, less the revoked one: a second Query would cost a read and, gsi1 lagging
  // the delete, could still list the revoked key.
  return live.filter((item) => item.hash !== hash).map(toView);
}

/** At most the key's last four characters: enough to tell keys apart, nothing to use. */
function toView(item: ApiKeyItem): ApiKeyView {
  return {
    key: `${'*'.repeat(8)}${item.keyHint ?? ''}`,
    _userId: item.userId,
    hash: item.hash,
    createdAt: item.createdAt,
    ...(item.expiresAt !== undefined && { expiresAt: item.expiresAt }),
  };
}
