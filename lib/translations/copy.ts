import type { EnvScope } from '../scope.ts';
import { contentsOf, deleteTranslationsOf, putTranslations, type ResourceRef } from './repository.ts';

/**
 * The target resource's translations become the source's (the target's own are replaced, locales
 * the source lacks included); a source without translations leaves none. Workflow and layout sync
 * and layout duplicate copy this way.
 */
export async function copyTranslations(
  source: { scope: EnvScope; resource: ResourceRef },
  target: { scope: EnvScope; resource: ResourceRef },
): Promise<void> {
  const contents = await contentsOf(source.scope, source.resource);
  await deleteTranslationsOf(target.scope, target.resource);
  await putTranslations(target.scope, target.resource, Object.entries(contents), new Date().toISOString());
}
