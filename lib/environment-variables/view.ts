import type { EnvScope } from '../scope.ts';
import { openValue, type StoredVariable } from './repository.ts';
import { SECRET_MASK, type VariableView } from './schemas.ts';

/** The reference's `EnvironmentVariableResponseDto`, with the caller's environment's value only (a secret's masked). */
export async function toVariableView(variable: StoredVariable, scope: EnvScope): Promise<VariableView> {
  const sealed = variable.values[scope.environmentId];
  const values =
    sealed === undefined
      ? []
      : [{ _environmentId: scope.environmentId, value: variable.isSecret ? SECRET_MASK : await openValue(variable.dataKey, sealed) }];
  return {
    _id: variable._id,
    _organizationId: variable._organizationId,
    key: variable.key,
    type: variable.valueType,
    isSecret: variable.isSecret,
    values,
    createdAt: variable.createdAt,
    updatedAt: variable.updatedAt,
  };
}
