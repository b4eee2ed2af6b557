import type { StoredLayout } from '../layouts/model.ts';
import type { EnvScope } from '../scope.ts';
import { copyTranslations } from './copy.ts';
import { deleteTranslationsOf, type ResourceRef } from './repository.ts';

// What the layout use cases do to a layout's translations, as for workflows
// (workflow-translations.ts): delete them with the layout or when its translations are turned off,
// copy them to a duplicate that renders translations (the reference's DuplicateLocales) and to the
// target of a workflow sync. Keyed by the layout's database id; clients name it by its identifier.

export const layoutResource = (layout: Pick<StoredLayout, '_id' | 'layoutId' | 'name'>): ResourceRef => ({
  resourceType: 'layout',
  dbId: layout._id,
  resourceId: layout.layoutId,
  name: layout.name,
});

export async function forgetLayoutTranslations(scope: EnvScope, layout: Pick<StoredLayout, '_id'>): Promise<void> {
  await deleteTranslationsOf(scope, { resourceType: 'layout', dbId: layout._id });
}

/** The copy's translations become the original's (duplicate: same scope; sync: another environment). */
export function copyLayoutTranslations(
  source: { scope: EnvScope; layout: StoredLayout },
  target: { scope: EnvScope; layout: StoredLayout },
): Promise<void> {
  return copyTranslations(
    { scope: source.scope, resource: layoutResource(source.layout) },
    { scope: target.scope, resource: layoutResource(target.layout) },
  );
}
