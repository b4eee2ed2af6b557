import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { indexRange, onIndex } from '../store/index-keys.ts';
import { paginate, queryReader, type Page, type PageRequest } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { queryAll } from '../store/query-pages.ts';
import { deleteExisting, setOnExisting } from '../store/update-existing.ts';
import { totalCountOf } from '../http/total-count.ts';
import { listFilter } from './list-filter.ts';
import type { EndpointData, EndpointType } from './schemas.ts';

// Storage of channel endpoints: one item per endpoint, keyed by its identifier, listed in
// creation order on gsi1 (the environment's) and gsi2 (its subscriber's: what a chat step reads).

export interface StoredEndpoint {
  _id: string;
  identifier: string;
  providerId: string;
  channel: 'chat';
  integrationIdentifier: string;
  _integrationId: string;
  connectionIdentifier: string | null;
  subscriberId: string;
  contextKeys: string[];
  type: EndpointType;
  endpoint: EndpointData;
  createdAt: string;
  updatedAt: string;
}

export async function getEndpoint(scope: EnvScope, identifier: string): Promise<StoredEndpoint | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.channelEndpoint(scope, identifier), ConsistentRead: true }),
  );
  return Item && fromItem(Item);
}

export async function insertEndpoint(scope: EnvScope, endpoint: StoredEndpoint): Promise<void> {
  const item = {
    ...keys.channelEndpoint(scope, endpoint.identifier),
    ...keys.channelEndpointListIndex(scope, endpoint.createdAt, endpoint._id),
    ...keys.channelEndpointSubscriberIndex(scope, endpoint.subscriberId, endpoint.createdAt, endpoint._id),
    ...endpoint,
    // `type` names the item's kind in this table; the endpoint's own type is `endpointType`.
    type: 'ChannelEndpoint',
    endpointType: endpoint.type,
    contextKey: endpoint.contextKeys.join(','),
  };
  const written = await writeIf(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  if (!written) throw new ConflictError(`Channel endpoint ${endpoint.identifier} already exists`);
}

export async function updateEndpointData(
  scope: EnvScope,
  identifier: string,
  endpoint: EndpointData,
  now: string,
): Promise<StoredEndpoint | undefined> {
  const item = await setOnExisting(keys.channelEndpoint(scope, identifier), { endpoint, updatedAt: now });
  return item && fromItem(item);
}

export const deleteEndpoint = (scope: EnvScope, identifier: string): Promise<boolean> =>
  deleteExisting(keys.channelEndpoint(scope, identifier));

/** Every endpoint of a subscriber (a chat step's destinations), oldest first. */
export async function endpointsOfSubscriber(scope: EnvScope, subscriberId: string): Promise<StoredEndpoint[]> {
  const items = await queryAll({
    IndexName: INDEXES.channelEndpoint.ofSubscriber.name,
    KeyConditionExpression: onIndex(INDEXES.channelEndpoint.ofSubscriber),
    ExpressionAttributeValues: { ':pk': keys.channelEndpointsOfSubscriber(scope, subscriberId).gsi2pk },
  });
  return items.map(fromItem);
}

export interface EndpointFilter {
  subscriberId?: string | undefined;
  channel?: string | undefined;
  providerId?: string | undefined;
  integrationIdentifier?: string | undefined;
  connectionIdentifier?: string | undefined;
  contextKeys?: readonly string[] | undefined;
}

export async function endpointsPage(
  scope: EnvScope,
  filter: EndpointFilter,
  request: PageRequest,
): Promise<Page<StoredEndpoint> & { totalCount: number; totalCountCapped: boolean }> {
  const { gsi1pk } = keys.channelEndpointsOfEnvironment(scope);
  const { contextKeys, ...equal } = filter;
  const range = indexRange(INDEXES.channelEndpoint.list, gsi1pk, listFilter(equal, contextKeys));
  const [page, total] = await Promise.all([
    paginate(queryReader(range), (item) => item[INDEXES.channelEndpoint.list.sortKey] as string, request),
    totalCountOf(range),
  ]);
  return { ...page, items: page.items.map(fromItem), ...total };
}

function fromItem(item: Record<string, unknown>): StoredEndpoint {
  return {
    _id: item._id as string,
    identifier: item.identifier as string,
    providerId: item.providerId as string,
    channel: 'chat',
    integrationIdentifier: item.integrationIdentifier as string,
    _integrationId: item._integrationId as string,
    connectionIdentifier: (item.connectionIdentifier as string | null | undefined) ?? null,
    subscriberId: item.subscriberId as string,
    contextKeys: (item.contextKeys as string[] | undefined) ?? [],
    type: item.endpointType as EndpointType,
    endpoint: item.endpoint as EndpointData,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
