import type { EnvScope } from '../scope.ts';
import { tenantNotFound } from './get.ts';
import { deleteTenant } from './repository.ts';

export async function removeTenant(scope: EnvScope, identifier: string): Promise<void> {
  if (!(await deleteTenant(scope, identifier))) throw tenantNotFound(identifier);
}
