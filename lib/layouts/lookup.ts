import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { EnvScope } from '../store/keys.ts';
import { layoutIdFromSlug } from '../workflows/slug.ts';
import type { StoredLayout } from './model.ts';
import { getLayout, getLayoutByDbId } from './repository.ts';

// A layout is named by its identifier, its database id or its slug (the reference's
// ParseSlugIdPipe): the identifier is tried first, as steps store it.

export async function resolveLayout(scope: EnvScope, ref: string): Promise<StoredLayout | undefined> {
  const byIdentifier = await getLayout(scope, ref);
  if (byIdentifier) return byIdentifier;
  const dbId = isId(ref) ? ref : layoutIdFromSlug(ref);
  return dbId ? getLayoutByDbId(scope, dbId) : undefined;
}

export const layoutNotFound = (ref: string, scope: EnvScope) => new NotFoundError(`Layout not found for id ${ref} in the environment ${scope.environmentId}`);

export async function requireLayout(scope: EnvScope, ref: string): Promise<StoredLayout> {
  const layout = await resolveLayout(scope, ref);
  if (!layout) throw layoutNotFound(ref, scope);
  return layout;
}
