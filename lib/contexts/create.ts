import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { insertContext } from './repository.ts';
import type { Context, CreateContextInput } from './schemas.ts';

/** Creates a context in the caller's environment; 409 when its type and id are taken. */
export async function createContext(scope: EnvScope, input: CreateContextInput): Promise<Context> {
  const now = new Date().toISOString();
  const context: Context = {
    type: input.type,
    id: input.id,
    data: input.data ?? {},
    ...(input.bridgeUrl !== undefined && { bridgeUrl: input.bridgeUrl }),
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertContext(scope, context))) throw new ConflictError(`Context with identifier ${input.type}:${input.id} already exists`);
  return context;
}
