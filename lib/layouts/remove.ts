import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { forgetLayoutTranslations } from '../translations/layout-translations.ts';
import { layoutNotFound, requireLayout } from './lookup.ts';
import { deleteLayout } from './repository.ts';

// Deleting the default layout is refused (409, the reference's words), and so is deleting a
// layout any workflow's email step names (409): the reference unlinks those steps instead, which
// silently changes what they send. Its translations go with it, once the layout is gone (a
// refused delete keeps them).

export async function removeLayout(scope: EnvScope, ref: string): Promise<void> {
  const layout = await requireLayout(scope, ref);
  if (layout.isDefault)
    throw new ConflictError(`Layout with id ${layout.layoutId} is being used as a default layout, it can not be deleted`);
  const outcome = await deleteLayout(layout);
  if (outcome === 'in-use') throw new ConflictError(`Layout with id ${layout.layoutId} is used by a workflow, it can not be deleted`);
  if (outcome === 'changed') throw layoutNotFound(ref, scope);
  await forgetLayoutTranslations(scope, layout);
}
