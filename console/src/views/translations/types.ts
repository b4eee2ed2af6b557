import { consolePath } from '../../components/console-path.ts';

// The fields of the translation API's bodies (/v2/translations, docs/translations.md) this view reads.

export const RESOURCE_TYPES = ['workflow', 'layout'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface TranslationGroup {
  resourceId: string;
  resourceType: ResourceType;
  resourceName: string;
  locales: string[];
  outdatedLocales?: string[];
  createdAt: string;
  updatedAt: string;
}

export interface TranslationGroupPage {
  data: TranslationGroup[];
  total: number;
  limit: number;
  offset: number;
}

export interface Translation {
  resourceId: string;
  resourceType: ResourceType;
  locale: string;
  content: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const translationsPath = (environmentId: string) => consolePath(environmentId, 'translations');
export const groupPath = (environmentId: string, resourceType: string, resourceId: string, locale?: string) => {
  const query = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  return `${translationsPath(environmentId)}/${resourceType}/${encodeURIComponent(resourceId)}${query}`;
};
export const resourceUrl = (resourceType: string, resourceId: string) =>
  `/v2/translations/${resourceType}/${encodeURIComponent(resourceId)}`;
