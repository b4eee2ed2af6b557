import type { EnvScope } from '../scope.ts';
import { contextNotFound } from './get.ts';
import { deleteContext } from './repository.ts';

export async function removeContext(scope: EnvScope, type: string, id: string): Promise<void> {
  if (!(await deleteContext(scope, type, id))) throw contextNotFound(type, id);
}
