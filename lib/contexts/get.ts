import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getContext } from './repository.ts';
import type { Context } from './schemas.ts';

export const contextNotFound = (type: string, id: string) => new NotFoundError(`Context with identifier '${type}:${id}' not found`);

export async function requireContext(scope: EnvScope, type: string, id: string): Promise<Context> {
  const context = await getContext(scope, type, id);
  if (!context) throw contextNotFound(type, id);
  return context;
}
