import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { DEFAULT_LOCALE } from '../translations/locales.ts';
import type { OrganizationSettings, OrganizationSettingsPatch } from './settings-schemas.ts';

// The organization's settings: one item beside the organization, absent until first changed
// (then every field has the reference's default). A PATCH sets only the fields sent, in one
// UpdateItem, so concurrent changes of different fields both stay. `channelFailover` belongs to
// the caller's environment: the item keeps the set of environments that turned it on (ADD/DELETE
// of one id, so two environments changing theirs at once both stay), and each sees its own.

const DEFAULTS = { removeNovuBranding: false, defaultLocale: DEFAULT_LOCALE, targetLocales: [] as string[] };

/** The settings as `scope`'s environment sees them (without one, `channelFailover` is false). */
export async function getOrganizationSettings(scope: { organizationId: string; environmentId?: string }): Promise<OrganizationSettings> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.organizationSettings(scope.organizationId), ConsistentRead: true }),
  );
  return fromItem(Item, scope.environmentId);
}

/** Whether the environment turned channel failover on (lib/providers/failover.ts). */
export async function channelFailoverEnabled(scope: EnvScope): Promise<boolean> {
  return (await getOrganizationSettings(scope)).channelFailover;
}

export async function updateOrganizationSettings(scope: EnvScope, patch: OrganizationSettingsPatch): Promise<OrganizationSettings> {
  const names: Record<string, string> = { '#type': 'type' };
  const values: Record<string, unknown> = { ':type': 'OrganizationSettings', ':now': new Date().toISOString() };
  const set = ['#type = :type', 'updatedAt = :now'];
  for (const field of ['removeNovuBranding', 'defaultLocale', 'targetLocales'] as const) {
    if (patch[field] === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = field === 'targetLocales' ? [...new Set(patch.targetLocales)] : patch[field];
    set.push(`#${field} = :${field}`);
  }
  let update = `SET ${set.join(', ')}`;
  if (patch.channelFailover !== undefined) {
    names['#failover'] = 'failoverEnvironmentIds';
    values[':env'] = new Set([scope.environmentId]);
    update += ` ${patch.channelFailover ? 'ADD' : 'DELETE'} #failover :env`;
  }
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.organizationSettings(scope.organizationId),
      UpdateExpression: update,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return fromItem(Attributes, scope.environmentId);
}

function fromItem(item: Record<string, unknown> | undefined, environmentId: string | undefined): OrganizationSettings {
  return {
    removeNovuBranding: (item?.removeNovuBranding as boolean | undefined) ?? DEFAULTS.removeNovuBranding,
    defaultLocale: (item?.defaultLocale as string | undefined) ?? DEFAULTS.defaultLocale,
    targetLocales: (item?.targetLocales as string[] | undefined) ?? DEFAULTS.targetLocales,
    channelFailover: (item?.failoverEnvironmentIds as Set<string> | undefined)?.has(environmentId ?? '') ?? false,
  };
}
