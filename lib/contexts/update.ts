import type { EnvScope } from '../scope.ts';
import { contextNotFound } from './get.ts';
import { updateContext } from './repository.ts';
import type { Context, ContextUpdate } from './schemas.ts';

/** PATCH: `data` replaces the stored data whole, as the reference does; the type and id stay. */
export async function patchContext(scope: EnvScope, type: string, id: string, change: ContextUpdate): Promise<Context> {
  const updated = await updateContext(scope, type, id, change, new Date().toISOString());
  if (!updated) throw contextNotFound(type, id);
  return updated;
}
