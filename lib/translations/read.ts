import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getOrganizationSettings } from '../accounts/organization-settings.ts';
import { getGroup, getTranslation, groupsOfEnvironment, localesOf, type StoredGroup } from './repository.ts';
import { requireResource, type TranslatableResource } from './resources.ts';
import type { ListGroupsQuery, ResourceType, Translation, TranslationGroup, TranslationGroupPage } from './schemas.ts';

// Reading translations: one locale, a resource's group, and the environment's groups.

export const groupNotFound = (resourceType: ResourceType, resourceId: string) =>
  new NotFoundError(`Translation group for ${resourceType} ${resourceId} not found`);

export const translationNotFound = (resourceType: ResourceType, resourceId: string, locale: string) =>
  new NotFoundError(`Translation for ${resourceType} ${resourceId} in locale ${locale} not found`);

export async function readTranslation(
  scope: EnvScope,
  resourceType: ResourceType,
  resourceId: string,
  locale: string,
): Promise<Translation> {
  const resource = await requireResource(scope, resourceType, resourceId);
  const translation = await getTranslation(scope, resource, locale);
  if (!translation) throw translationNotFound(resourceType, resourceId, locale);
  return translation;
}

/** 404 when the resource has no group, or does not render translations (as the reference). */
export async function readGroup(scope: EnvScope, resourceType: ResourceType, resourceId: string): Promise<TranslationGroup> {
  const resource = await requireResource(scope, resourceType, resourceId);
  const group = resource.translationsEnabled ? await getGroup(scope, resource) : undefined;
  if (!group) throw groupNotFound(resourceType, resourceId);
  const [locales, settings] = await Promise.all([localesOf(scope, resource), getOrganizationSettings(scope)]);
  return groupView(group, resource, locales, settings);
}

/**
 * `outdatedLocales` only when the organization has target locales (as the reference): the
 * target locales without content, and those last changed before the default locale's content.
 */
function groupView(
  group: StoredGroup,
  resource: Pick<TranslatableResource, 'resourceId' | 'name'> | undefined,
  locales: { locale: string; updatedAt: string }[],
  settings: { defaultLocale: string; targetLocales: string[] },
): TranslationGroup {
  const names = locales.map((l) => l.locale).sort();
  const base = locales.find((l) => l.locale === settings.defaultLocale);
  const outdated =
    settings.targetLocales.length === 0
      ? undefined
      : settings.targetLocales.filter((target) => {
          const stamp = locales.find((l) => l.locale === target);
          return !stamp || (base !== undefined && target !== base.locale && stamp.updatedAt < base.updatedAt);
        });
  return {
    resourceId: resource?.resourceId ?? group.resourceId,
    resourceType: group.resourceType,
    resourceName: resource?.name ?? group.resourceName,
    locales: names,
    ...(outdated && { outdatedLocales: outdated }),
    createdAt: group.createdAt,
    updatedAt: group.updatedAt,
  };
}

/**
 * `GET /v2/translations/list`: the environment's groups, newest first, `query` matching the
 * resource's name or id without regard to case. Names and ids are those last written with a
 * translation; an environment has as many groups as translated workflows, read in one Query.
 */
export async function listGroups(scope: EnvScope, query: ListGroupsQuery): Promise<TranslationGroupPage> {
  const needle = query.query?.trim().toLowerCase();
  const groups = (await groupsOfEnvironment(scope))
    .reverse()
    .filter((g) => !needle || g.resourceName.toLowerCase().includes(needle) || g.resourceId.toLowerCase().includes(needle));
  const page = groups.slice(query.offset, query.offset + query.limit);
  const settings = await getOrganizationSettings(scope);
  const data = await Promise.all(page.map(async (group) => groupView(group, undefined, await localesOf(scope, group), settings)));
  return { data, total: groups.length, limit: query.limit, offset: query.offset };
}
