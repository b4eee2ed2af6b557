import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { decryptSecrets, encryptSecrets } from '../crypto/secret-fields.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { newOrAtVersion } from '../store/conditions.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll, type QueryInput } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { transact, type TransactItem } from '../store/transact.ts';
import { SECRET_CREDENTIAL_KEYS } from './catalogue.ts';
import type { Integration } from './schemas.ts';

// Storage of integrations. Secrets are encrypted here, on the way in, and decrypted on the way
// out, so no other code sees ciphertext. Every integration carries a version, and so does the
// order item of each email/sms channel; writes are conditioned on the versions they read, so of
// two requests changing the same integration or reordering the same channel only one wins.

export interface StoredIntegration extends Integration {
  version: number;
}

const SECRET_KEYS = { credentials: SECRET_CREDENTIAL_KEYS, configurations: ['inboundWebhookSigningKey'] } as const;

/** Another request changed one of the integrations first; the caller may retry from fresh reads. */

export async function getIntegration(organizationId: string, integrationId: string): Promise<StoredIntegration | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.integration(organizationId, integrationId) }));
  if (!Item || Item.deleted) return undefined;
  return fromItem(Item);
}

/** Every integration of the organization, all environments, in creation order; deleted ones excluded. */
export async function listIntegrationsOfOrganization(organizationId: string): Promise<StoredIntegration[]> {
  const { pk, skPrefix } = keys.integrationsOfOrganization(organizationId);
  return queryIntegrations({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    FilterExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix, ':false': false },
  });
}

/** The integrations of one environment and channel (not deleted: the index is sparse). */
export async function listIntegrationsOfChannel(scope: EnvScope, channel: string): Promise<StoredIntegration[]> {
  return queryIntegrations({
    IndexName: INDEXES.integration.ofChannel.name,
    KeyConditionExpression: onIndex(INDEXES.integration.ofChannel),
    ExpressionAttributeValues: { ':pk': keys.integrationsOfChannel(scope, channel).gsi1pk },
  });
}

/** The active integrations of an environment's email or sms channel, highest priority first. */
export interface ChannelOrder {
  activeIds: string[];
  primaryId: string | null;
  /** 0 while the item does not exist yet. */
  version: number;
}

export async function getChannelOrder(scope: EnvScope, channel: string): Promise<ChannelOrder> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.integrationChannelOrder(scope, channel), ConsistentRead: true }),
  );
  return {
    activeIds: (Item?.activeIds as string[] | undefined) ?? [],
    primaryId: (Item?.primaryId as string | null | undefined) ?? null,
    version: (Item?.version as number | undefined) ?? 0,
  };
}

export interface ChannelOrderWrite extends ChannelOrder {
  scope: EnvScope;
  channel: string;
}

export interface IntegrationWrite {
  /** The integration to store whole; `expectedVersion` undefined means it must not exist yet. */
  save: Integration;
  expectedVersion?: number;
  /** New priority/primary of other integrations of the channel. */
  reorder?: { _id: string; priority: number; primary: boolean }[];
  /** New channel orders, each written only if still at the version the plan read. */
  channelOrders?: ChannelOrderWrite[];
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

  const actions: TransactItem[] = [{ Put: { TableName: tableName(), Item: item, ...newOrAtVersion(write.expectedVersion) } }];
  for (const other of write.reorder ?? []) {
    actions.push({
      // Only the ranking fields; the version bump makes a concurrent whole-item write of this
      // integration fail and retry rather than restore the old ranking.
      Update: {
        TableName: tableName(),
        Key: keys.integration(org, other._id),
        UpdateExpression: 'SET priority = :p, #primary = :pr, version = version + :one, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#primary': 'primary' },
        ExpressionAttributeValues: { ':p': other.priority, ':pr': other.primary, ':one': 1, ':now': now },
      },
    });
  }
  for (const order of write.channelOrders ?? []) {
    actions.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.integrationChannelOrder(order.scope, order.channel),
          type: 'IntegrationChannelOrder',
          activeIds: order.activeIds,
          primaryId: order.primaryId,
          version: order.version + 1,
        },
        // Version 0: none stored yet.
        ...newOrAtVersion(order.version === 0 ? undefined : order.version),
      },
    });
  }
  const claimIndex = write.claimIdentifier === undefined ? -1 : actions.length;
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

  const refused = await transact(actions, { answers: ['ConditionalCheckFailed', 'TransactionConflict'] });
  if (refused && claimIndex >= 0 && refused[claimIndex] === 'ConditionalCheckFailed') {
    throw new ConflictError('Integration with identifier already exists');
  }
  if (refused) throw new StaleWriteError('Integration changed concurrently');
  return { ...save, version };
}

async function queryIntegrations(input: QueryInput): Promise<StoredIntegration[]> {
  return Promise.all((await queryAll(input)).map(fromItem));
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
