import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { findByRef } from '../workflows/slug.ts';
import type { StoredLayout } from './model.ts';
import { getLayout, getLayoutByDbId } from './repository.ts';

// A layout is named by its identifier, its database id or its slug (slug.ts findByRef): the
// identifier is tried first, as steps store it.

export function resolveLayout(scope: EnvScope, ref: string): Promise<StoredLayout | undefined> {
  return findByRef(
    ref,
    'lt',
    (identifier) => getLayout(scope, identifier),
    (dbId) => getLayoutByDbId(scope, dbId),
  );
}

export const layoutNotFound = (ref: string, scope: EnvScope) =>
  new NotFoundError(`Layout not found for id ${ref} in the environment ${scope.environmentId}`);

export async function requireLayout(scope: EnvScope, ref: string): Promise<StoredLayout> {
  const layout = await resolveLayout(scope, ref);
  if (!layout) throw layoutNotFound(ref, scope);
  return layout;
}
