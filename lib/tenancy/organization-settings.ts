import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import { DEFAULT_LOCALE } from '../translations/locales.ts';
import type { OrganizationSettings, OrganizationSettingsPatch } from './settings-schemas.ts';

// The organization's settings: one item beside the organization, absent until first changed
// (then every field has the reference's default). A PATCH sets only the fields sent, in one
// UpdateItem, so concurrent changes of different fields both stay.

const DEFAULTS: OrganizationSettings = { removeNovuBranding: false, defaultLocale: DEFAULT_LOCALE, targetLocales: [] };

export async function getOrganizationSettings(organizationId: string): Promise<OrganizationSettings> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.organizationSettings(organizationId), ConsistentRead: true }));
  return fromItem(Item);
}

export async function updateOrganizationSettings(organizationId: string, patch: OrganizationSettingsPatch): Promise<OrganizationSettings> {
  const names: Record<string, string> = { '#type': 'type' };
  const values: Record<string, unknown> = { ':type': 'OrganizationSettings', ':now': new Date().toISOString() };
  const set = ['#type = :type', 'updatedAt = :now'];
  for (const field of ['removeNovuBranding', 'defaultLocale', 'targetLocales'] as const) {
    if (patch[field] === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = field === 'targetLocales' ? [...new Set(patch.targetLocales)] : patch[field];
    set.push(`#${field} = :${field}`);
  }
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.organizationSettings(organizationId),
      UpdateExpression: `SET ${set.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return fromItem(Attributes);
}

function fromItem(item: Record<string, unknown> | undefined): OrganizationSettings {
  return {
    removeNovuBranding: (item?.removeNovuBranding as boolean | undefined) ?? DEFAULTS.removeNovuBranding,
    defaultLocale: (item?.defaultLocale as string | undefined) ?? DEFAULTS.defaultLocale,
    targetLocales: (item?.targetLocales as string[] | undefined) ?? DEFAULTS.targetLocales,
  };
}
