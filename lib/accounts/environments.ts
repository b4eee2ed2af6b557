import { randomBytes } from 'node:crypto';
import type { TrackingPatch } from './tracking-settings.ts';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequestError, ConflictError } from '../errors.ts';
import { transact } from '../store/transact.ts';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import type { CategoryLimits } from '../rate-limits/policy.ts';

// Organizations and their environments (Development, Production, ...). Every other record
// belongs to one of these.

export interface Organization {
  _id: string;
  name: string;
  createdAt: string;
  /**
   * The organization's own API rate limits (requests per second by category) in place of the
   * stage's, for each of its environments; set by the operator (docs/deploy.md).
   */
  apiRateLimits?: Partial<CategoryLimits>;
}

export interface Environment {
  _id: string;
  _organizationId: string;
  name: string;
  /** Public: what a front end (`<Inbox applicationIdentifier>`) names the environment by. */
  identifier: string;
  /** The environment it was made beside: Production's is Development (as the reference's). */
  _parentId?: string;
  /** What the dashboard shows it in (hex); kept for the reference's clients, used by nothing here. */
  color?: string;
  /** The domain inbound email is parsed for, as the reference keeps it (used by nothing here). */
  inboundParseDomain?: string;
  /** Set by a code-first sync (lib/bridge/sync.ts): the customer's bridge its `external` workflows run through. */
  bridge?: { url: string };
  /** Link and open tracking as set (lib/engagement/settings.ts fills in the defaults). */
  tracking?: TrackingPatch;
  createdAt: string;
}

/** The names every organization's first two environments have; no other environment may take them. */
export const PROTECTED_ENVIRONMENT_NAMES = ['Development', 'Production'] as const;

export const isProtectedEnvironmentName = (name: string): boolean =>
  PROTECTED_ENVIRONMENT_NAMES.some((protectedName) => protectedName.toLowerCase() === name.trim().toLowerCase());

export async function putOrganization(organization: Organization): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.organization(organization._id), type: 'Organization', ...organization },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * The environment with its application identifier and its lookup by id, all created at once, and
 * the marker of its name for an environment other than Development and Production (whose names
 * are protected).
 */
export async function putEnvironment(environment: Environment): Promise<void> {
  const scope = { organizationId: environment._organizationId, environmentId: environment._id };
  const nameMarker = isProtectedEnvironmentName(environment.name)
    ? []
    : [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.environmentName(environment._organizationId, environment.name), type: 'EnvironmentName', ...scope },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
  const refused = await transact(
    [
      ...nameMarker,
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.environment(environment._organizationId, environment._id), type: 'Environment', ...environment },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.applicationIdentifier(environment.identifier), type: 'ApplicationIdentifier', ...scope, name: environment.name },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...keys.environmentById(environment._id), type: 'EnvironmentId', ...scope } } },
    ],
    { answers: ['ConditionalCheckFailed'] },
  );
  if (!refused) return;
  if (nameMarker.length > 0 && refused[0] === 'ConditionalCheckFailed') throw new BadRequestError('Environment name must be unique');
  throw new ConflictError('The environment could not be created; try again');
}

/** A new application identifier: public, but not guessable from another (12 random characters). */
export const newApplicationIdentifier = (): string => randomBytes(9).toString('base64url');

/** The environment a front end names by its application identifier. */
export async function findEnvironmentByIdentifier(identifier: string): Promise<(EnvScope & { name: string }) | undefined> {
  const item = await getItem(keys.applicationIdentifier(identifier));
  if (!item) return undefined;
  return { organizationId: item.organizationId as string, environmentId: item.environmentId as string, name: item.name as string };
}

/** The environment, only if it belongs to the organization. */
export async function getEnvironment(organizationId: string, environmentId: string): Promise<Environment | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.environment(organizationId, environmentId) }));
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
    identifier: item.identifier as string,
    ...(typeof item._parentId === 'string' && { _parentId: item._parentId }),
    ...(typeof item.color === 'string' && { color: item.color }),
    ...(typeof item.inboundParseDomain === 'string' && { inboundParseDomain: item.inboundParseDomain }),
    ...(isBridge(item.bridge) && { bridge: { url: item.bridge.url } }),
    ...(typeof item.tracking === 'object' && item.tracking !== null && { tracking: item.tracking as TrackingPatch }),
    createdAt: item.createdAt as string,
  };
}

const isBridge = (value: unknown): value is { url: string } =>
  typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string';
