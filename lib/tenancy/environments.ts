import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';

// Organizations and their environments (Development, Production, ...). Every other record
// belongs to one of these.

export interface Organization {
  _id: string;
  name: string;
  createdAt: string;
}

export interface Environment {
  _id: string;
  _organizationId: string;
  name: string;
  createdAt: string;
}

export async function putOrganization(organization: Organization): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.organization(organization._id), type: 'Organization', ...organization },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function putEnvironment(environment: Environment): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.environment(environment._organizationId, environment._id), type: 'Environment', ...environment },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The environment, only if it belongs to the organization. */
export async function getEnvironment(organizationId: string, environmentId: string): Promise<Environment | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.environment(organizationId, environmentId) }),
  );
  return Item ? toEnvironment(Item) : undefined;
}

export async function listEnvironments(organizationId: string): Promise<Environment[]> {
  const { pk, skPrefix } = keys.environmentsOfOrganization(organizationId);
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    }),
  );
  return Items.map(toEnvironment);
}

function toEnvironment(item: Record<string, unknown>): Environment {
  return {
    _id: item._id as string,
    _organizationId: item._organizationId as string,
    name: item.name as string,
    createdAt: item.createdAt as string,
  };
}
