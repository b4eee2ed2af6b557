import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { dataKeys, open, seal } from '../crypto/data-keys.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { transact } from '../store/transact.ts';

// Environment variables as stored: one item per variable in the organization's partition, its
// values by environment id inside, each sealed (AES-256-GCM) under the variable's own data key,
// which KMS (locally, the stage's key file) wraps. A secret and a plain value are kept alike; only
// the answers differ. Every write replaces the item at the version it was read at.

export interface StoredVariable {
  _id: string;
  _organizationId: string;
  key: string;
  /** The variable's `type` (the item's own `type` names the record kind). */
  valueType: 'string';
  isSecret: boolean;
  /** Sealed values by environment id. */
  values: Record<string, string>;
  dataKey: string;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
  version: number;
}

export async function getVariable(organizationId: string, key: string): Promise<StoredVariable | undefined> {
  const item = await getItem(keys.environmentVariable(organizationId, key), { consistent: true });
  return item && toVariable(item);
}

/** Every variable of the organization (one Query of its partition), in key order. */
export async function listVariables(organizationId: string): Promise<StoredVariable[]> {
  const { pk, skPrefix } = keys.environmentVariablesOfOrganization(organizationId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
  });
  return items.map(toVariable);
}

/** A new variable; 409 if its key is taken. */
export async function insertVariable(variable: StoredVariable): Promise<void> {
  const written = await writeIf(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: itemOf(variable), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  if (!written) throw new ConflictError(`Environment variable with key "${variable.key}" already exists`);
}

/**
 * `next` in place of `previous` (read at its version): under the same key a Put, under a new key
 * the new item and the old one's deletion together (409 if the new key is taken).
 */
export async function replaceVariable(previous: StoredVariable, next: StoredVariable): Promise<void> {
  const atVersion = { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': previous.version } };
  const item = itemOf({ ...next, version: previous.version + 1 });
  if (next.key === previous.key) {
    const written = await writeIf(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ...atVersion })));
    if (!written) throw new StaleWriteError('Environment variable changed');
    return;
  }
  const refused = await transact(
    [
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: keys.environmentVariable(previous._organizationId, previous.key), ...atVersion } },
    ],
    { answers: ['ConditionalCheckFailed'] },
  );
  if (!refused) return;
  if (refused[0] === 'ConditionalCheckFailed') throw new ConflictError(`Environment variable with key "${next.key}" already exists`);
  throw new StaleWriteError('Environment variable changed');
}

export async function deleteVariable(previous: StoredVariable): Promise<void> {
  const written = await writeIf(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.environmentVariable(previous._organizationId, previous.key),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': previous.version },
      }),
    ),
  );
  if (!written) throw new StaleWriteError('Environment variable changed');
}

/** A new data key for a new variable, wrapped, and the plaintext to seal its first values with. */
export const newDataKey = () => dataKeys().generate();

export async function sealValue(dataKey: string, value: string): Promise<string> {
  return seal(await dataKeys().unwrap(dataKey), Buffer.from(value, 'utf8'));
}

export async function openValue(dataKey: string, sealed: string): Promise<string> {
  return open(await dataKeys().unwrap(dataKey), sealed).toString('utf8');
}

function itemOf(variable: StoredVariable): Record<string, unknown> {
  return { ...keys.environmentVariable(variable._organizationId, variable.key), type: 'EnvironmentVariable', ...variable };
}

function toVariable(item: Record<string, unknown>): StoredVariable {
  return {
    _id: item._id as string,
    _organizationId: item._organizationId as string,
    key: item.key as string,
    valueType: 'string',
    isSecret: item.isSecret === true,
    values: (item.values as Record<string, string> | undefined) ?? {},
    dataKey: item.dataKey as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    updatedBy: item.updatedBy as string,
    version: item.version as number,
  };
}
