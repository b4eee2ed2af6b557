import type { EnvScope } from '../scope.ts';
import { getOrganizationSettings } from '../accounts/organization-settings.ts';
import { putTranslation, translationsOfLocale } from './repository.ts';
import { findResource } from './resources.ts';
import type { ImportMasterJsonInput, ImportMasterJsonResult, MasterJson, ResourceType } from './schemas.ts';

// The master JSON: every resource's content of one locale, keyed by the resource's id, grouped by
// type (the reference's shape), exported from one Query of the locale's index and imported
// resource by resource.

/** `locale` defaults to the organization's default locale; only resources with content in it appear. */
export async function exportMasterJson(scope: EnvScope, locale?: string): Promise<MasterJson> {
  const chosen = locale ?? (await getOrganizationSettings(scope)).defaultLocale;
  const out: MasterJson = { workflows: {}, layouts: {} };
  for (const t of await translationsOfLocale(scope, chosen)) out[SECTION[t.resourceType]][t.resourceId] = t.content;
  return out;
}

const SECTION = { workflow: 'workflows', layout: 'layouts' } as const satisfies Record<ResourceType, keyof MasterJson>;

/**
 * Each resource's content replaced, as `POST /v2/translations` would; ids that name no resource
 * go to `failed` and the others are still imported ("Partial import completed"), as the
 * reference answers. Content is written whether or not the resource renders translations.
 */
export async function importMasterJson(scope: EnvScope, input: ImportMasterJsonInput): Promise<ImportMasterJsonResult> {
  const entries: [ResourceType, string, Record<string, unknown>][] = [
    ...Object.entries(input.masterJson.workflows).map(
      ([id, content]) => ['workflow', id, content] as [ResourceType, string, Record<string, unknown>],
    ),
    ...Object.entries(input.masterJson.layouts ?? {}).map(
      ([id, content]) => ['layout', id, content] as [ResourceType, string, Record<string, unknown>],
    ),
  ];
  const successful: string[] = [];
  const failed: string[] = [];
  const now = new Date().toISOString();
  for (const [type, id, content] of entries) {
    const resource = await findResource(scope, type, id);
    if (!resource) {
      failed.push(id);
      continue;
    }
    await putTranslation(scope, resource, input.locale, content, now);
    successful.push(id);
  }
  if (failed.length === 0)
    return { success: true, message: `Successfully imported translations for ${successful.length} resource(s)`, successful };
  if (successful.length === 0) return { success: false, message: `No resource was found: nothing imported`, successful, failed };
  return { success: true, message: 'Partial import completed', successful, failed };
}
