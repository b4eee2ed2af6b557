import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { decryptSecrets, encryptSecrets } from '../crypto/secret-fields.ts';
import { db } from '../store/client.ts';
import { paginate, queryReader, type Page, type PageRequest } from '../store/cursor-page.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import { deleteExisting, setOnExisting } from '../store/update-existing.ts';
import type { Endpoint, EndpointPatch } from './schemas.ts';

// Storage of webhook endpoints: one item each in the environment's webhook partition, listed by
// id (= creation order). The signing secret is encrypted like integration credentials (its own
// data key, KMS in AWS) and decrypted only to sign or to answer create and rotate.

export const ENDPOINT_ITEM_TYPE = 'WebhookEndpoint';
const SECRET_FIELDS = { signing: ['secret'] } as const;

const sealSecret = async (secret: string) => {
  const { groups, dataKey } = await encryptSecrets({ signing: { secret } }, SECRET_FIELDS);
  return { secret: groups.signing.secret as string, dataKey };
};

function fromItem(item: Record<string, unknown>): Endpoint {
  return {
    _id: item._id as string,
    url: item.url as string,
    description: (item.description as string | undefined) ?? '',
    eventTypes: (item.eventTypes as string[] | undefined) ?? [],
    enabled: item.enabled as boolean,
    _environmentId: item._environmentId as string,
    _organizationId: item._organizationId as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export async function insertEndpoint(scope: EnvScope, endpoint: Endpoint, secret: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.webhookEndpoint(scope, endpoint._id), type: ENDPOINT_ITEM_TYPE, ...endpoint, ...(await sealSecret(secret)) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getEndpoint(scope: EnvScope, endpointId: string): Promise<Endpoint | undefined> {
  const item = await getItem(keys.webhookEndpoint(scope, endpointId), { consistent: true });
  return item && fromItem(item);
}

/** The endpoint and its secret in plaintext (to sign with); read consistently, as the sender reads its attempts. */
export async function getEndpointForSending(
  scope: EnvScope,
  endpointId: string,
): Promise<{ endpoint: Endpoint; secret: string } | undefined> {
  const item = await getItem(keys.webhookEndpoint(scope, endpointId), { consistent: true });
  if (!item) return undefined;
  const { signing } = await decryptSecrets({ signing: { secret: item.secret } }, item.dataKey as string | undefined);
  return { endpoint: fromItem(item), secret: signing.secret as string };
}

/** Every endpoint of the environment (a handful): what an event is matched against. */
export async function endpointsOfEnvironment(scope: EnvScope): Promise<Endpoint[]> {
  const { pk, skPrefix } = keys.webhookEndpointsOfEnvironment(scope);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  });
  return items.map(fromItem);
}

export async function endpointsPage(scope: EnvScope, request: PageRequest): Promise<Page<Endpoint>> {
  const { pk, skPrefix } = keys.webhookEndpointsOfEnvironment(scope);
  const page = await paginate(
    queryReader({ partitionKey: { name: 'pk', value: pk }, sortKeyName: 'sk', prefix: skPrefix }),
    (item) => item.sk as string,
    request,
  );
  return { ...page, items: page.items.map(fromItem) };
}

/** Sets the sent fields (and a new secret, when given); undefined when there is no such endpoint. */
export async function updateEndpoint(
  scope: EnvScope,
  endpointId: string,
  patch: EndpointPatch & { secret?: string },
  now: string,
): Promise<Endpoint | undefined> {
  const fields: Record<string, unknown> = { ...patch, updatedAt: now };
  if (patch.secret !== undefined) Object.assign(fields, await sealSecret(patch.secret));
  const item = await setOnExisting(keys.webhookEndpoint(scope, endpointId), fields);
  return item && fromItem(item);
}

/** False when there was no such endpoint. */
export const deleteEndpoint = (scope: EnvScope, endpointId: string): Promise<boolean> =>
  deleteExisting(keys.webhookEndpoint(scope, endpointId));
