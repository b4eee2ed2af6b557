import type { EnvScope } from '../scope.ts';
import { groupNotFound, translationNotFound } from './read.ts';
import { deleteTranslation, deleteTranslationsOf } from './repository.ts';
import { requireResource } from './resources.ts';
import type { ResourceType } from './schemas.ts';

export async function removeTranslation(scope: EnvScope, resourceType: ResourceType, resourceId: string, locale: string): Promise<void> {
  const resource = await requireResource(scope, resourceType, resourceId);
  if (!(await deleteTranslation(scope, resource, locale))) throw translationNotFound(resourceType, resourceId, locale);
}

/** The group with every locale. */
export async function removeGroup(scope: EnvScope, resourceType: ResourceType, resourceId: string): Promise<void> {
  const resource = await requireResource(scope, resourceType, resourceId);
  if (!(await deleteTranslationsOf(scope, resource))) throw groupNotFound(resourceType, resourceId);
}
