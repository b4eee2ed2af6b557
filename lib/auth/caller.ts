import type { EnvScope } from '../scope.ts';

/** Who is calling: the environment an API key belongs to, and the user who owns the key. */
export interface Caller extends EnvScope {
  userId: string;
}
