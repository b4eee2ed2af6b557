import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { decryptSecrets, encryptSecrets } from '../crypto/secret-fields.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import { SECRET_CREDENTIAL_KEYS } from './providers.ts';
import type { Integration } from './schemas.ts';

// Storage of integrations. Secrets are encrypted here, on the way in, and decrypted on the way
// out, so no other code sees ciphertext. Every item carries a version; writes are conditioned on
// it, so two requests reordering the same channel cannot both win.

export interface StoredIntegration extends Integration {
  version: number;
}

const SECRET_KEYS = { credentials: SECRET_CREDENTIAL_KEYS, configurations: ['inboundWebhookSigningKey'] } as const;

/** Another request changed one of the integrations first; the caller may retry from fresh reads. */
export class StaleWriteError extends Error {}

export async function getIntegration(organizationId: string, integrationId: string): Promise<StoredIntegration | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.integration(organizationId, integrationId) }),
  );
  if (!Item || Item.deleted) return undefined;
  return fromItem(Item);
}

/** Every integration of the organization, all environments, in creation order; deleted ones excluded. */
export async function listIntegrationsOfOrganization(organizationId: string): Promise<StoredIntegration[]> {
  const { pk, skPrefix } = keys.integrationsOfOrganization(organizationId);
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    FilterExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix, ':false': false },
  });
}

/** The integrations of one environment and channel (deleted ones are not in the index). */
export async function listIntegrationsOfChannel(scope: EnvScope, channel: string): Promise<StoredIntegration[]> {
  return queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.integrationsOfChannel(scope, channel).gsi1pk },
  });
}

export interface IntegrationWrite {
  /** The integration to store whole; `expectedVersion` undefined means it must not exist yet. */
  save: Integration;
  expectedVersion?: number;
  /** New priority/primary for other integrations of the channel, at their read version. */
  reorder?: { _id: string; priority: number; primary: boolean; expectedVersion: number }[];
  /** Other integrations the change was planned from: the write fails if one changed since. */
  unchanged?: { _id: string; expectedVersion: number }[];
  claimIdentifier?: string;
  releaseIdentifier?: string;
}

/** Writes the integration and everything that changes with it in one transaction. */
export async function writeIntegration(write: IntegrationWrite): Promise<StoredIntegration> {
  const { save } = write;
  const org = save._organizationId;
  const version = (write.expectedVersion ?? 0) + 1;
  const now = save.updatedAt;
  const item = await toItem(save, version);

  const actions: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Put: {
        TableName: tableName(),
        Item: item,
        ...(write.expectedVersion === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': write.expectedVersion } }),
      },
    },
  ];
  for (const other of write.reorder ?? []) {
    actions.push({
      Update: {
        TableName: tableName(),
        Key: keys.integration(org, other._id),
        UpdateExpression: 'SET priority = :p, #primary = :pr, version = :next, updatedAt = :now',
        ConditionExpression: 'version = :v',
        ExpressionAttributeNames: { '#primary': 'primary' },
        ExpressionAttributeValues: {
          ':p': other.priority,
          ':pr': other.primary,
          ':v': other.expectedVersion,
          ':next': other.expectedVersion + 1,
          ':now': now,
        },
      },
    });
  }
  if (write.claimIdentifier !== undefined) {
    actions.push({
      Put: {
        TableName: tableName(),
        Item: { ...keys.integrationIdentifier(org, write.claimIdentifier), type: 'IntegrationIdentifier', integrationId: save._id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  if (write.releaseIdentifier !== undefined) {
    actions.push({ Delete: { TableName: tableName(), Key: keys.integrationIdentifier(org, write.releaseIdentifier) } });
  }
  // After the identifier actions, so the claim keeps its index for the conflict check below.
  const written = new Set([save._id, ...(write.reorder ?? []).map((r) => r._id)]);
  for (const other of write.unchanged ?? []) {
    if (written.has(other._id)) continue;
    written.add(other._id);
    actions.push({
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.integration(org, other._id),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': other.expectedVersion },
      },
    });
  }

  try {
    await db().send(new TransactWriteCommand({ TransactItems: actions }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const identifierIndex = write.claimIdentifier === undefined ? -1 : 1 + (write.reorder?.length ?? 0);
      if (identifierIndex >= 0 && reasons[identifierIndex]?.Code === 'ConditionalCheckFailed') {
        throw new ConflictError('Integration with identifier already exists');
      }
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')) {
        throw new StaleWriteError('Integration changed concurrently');
      }
    }
    throw error;
  }
  return { ...save, version };
}

async function queryAll(input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) {
  const out: StoredIntegration[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey }));
    for (const item of page.Items ?? []) out.push(await fromItem(item));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

async function toItem(integration: Integration, version: number): Promise<Record<string, unknown>> {
  const { groups, dataKey } = await encryptSecrets(
    { credentials: integration.credentials, configurations: integration.configurations },
    SECRET_KEYS,
  );
  const scope = { organizationId: integration._organizationId, environmentId: integration._environmentId };
  return {
    ...keys.integration(integration._organizationId, integration._id),
    // Deleted integrations leave the channel index, so provider selection never sees them.
    ...(integration.deleted ? {} : keys.integrationChannelIndex(scope, integration.channel, integration._id)),
    type: 'Integration',
    ...integration,
    ...groups,
    dataKey,
    version,
  };
}

async function fromItem(item: Record<string, unknown>): Promise<StoredIntegration> {
  const { credentials, configurations } = await decryptSecrets(
    {
      credentials: (item.credentials ?? {}) as Record<string, unknown>,
      configurations: item.configurations as Record<string, unknown> | undefined,
    },
    item.dataKey as string | undefined,
  );
  const integration: StoredIntegration = {
    _id: item._id as string,
    _environmentId: item._environmentId as string,
    _organizationId: item._organizationId as string,
    name: item.name as string,
    identifier: item.identifier as string,
    providerId: item.providerId as string,
    channel: item.channel as Integration['channel'],
    credentials,
    active: item.active as boolean,
    deleted: item.deleted as boolean,
    primary: item.primary as boolean,
    priority: item.priority as number,
    conditions: (item.conditions ?? []) as Integration['conditions'],
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    version: item.version as number,
  };
  if (configurations) integration.configurations = configurations as Integration['configurations'];
  if (item.deletedAt) integration.deletedAt = item.deletedAt as string;
  if (item.deletedBy) integration.deletedBy = item.deletedBy as string;
  return integration;
}
