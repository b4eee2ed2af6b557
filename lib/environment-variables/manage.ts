import type { Caller } from '../auth/caller.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { newId } from '../ids.ts';
import { seal } from '../crypto/data-keys.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import {
  deleteVariable,
  getVariable,
  insertVariable,
  listVariables,
  newDataKey,
  replaceVariable,
  sealValue,
  type StoredVariable,
} from './repository.ts';
import type { CreateVariableInput, UpdateVariableInput, VariableView } from './schemas.ts';
import { checkValues } from './scope.ts';
import { toVariableView } from './view.ts';

// The organization's environment variables, as an API key sees and changes them: every variable
// (they are the organization's), with its own environment's value only, which is the only value
// it may set or remove.

/** Variables an organization may have. */
export const MAX_VARIABLES = 100;

export async function createVariable(caller: Caller, input: CreateVariableInput): Promise<VariableView> {
  await checkValues(caller, input.values);
  if ((await listVariables(caller.organizationId)).length >= MAX_VARIABLES) {
    throw new BadRequestError(`An organization can have at most ${MAX_VARIABLES} environment variables`);
  }
  const { plaintext, wrapped } = await newDataKey();
  const now = new Date().toISOString();
  const variable: StoredVariable = {
    _id: newId(),
    _organizationId: caller.organizationId,
    key: input.key,
    valueType: input.type ?? 'string',
    isSecret: input.isSecret ?? false,
    values: Object.fromEntries((input.values ?? []).map((v) => [v._environmentId, seal(plaintext, Buffer.from(v.value, 'utf8'))])),
    dataKey: wrapped,
    createdAt: now,
    updatedAt: now,
    updatedBy: caller.userId,
    version: 1,
  };
  await insertVariable(variable);
  return toVariableView(variable, caller);
}

export async function listVariableViews(scope: EnvScope, search?: string): Promise<VariableView[]> {
  const needle = search?.toLowerCase();
  const variables = (await listVariables(scope.organizationId))
    .filter((variable) => !needle || variable.key.toLowerCase().includes(needle))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id));
  return Promise.all(variables.map((variable) => toVariableView(variable, scope)));
}

export async function requireVariable(organizationId: string, key: string): Promise<StoredVariable> {
  const variable = await getVariable(organizationId, key);
  if (!variable) throw new NotFoundError(`Environment variable with key "${key}" not found`);
  return variable;
}

export async function getVariableView(scope: EnvScope, key: string): Promise<VariableView> {
  return toVariableView(await requireVariable(scope.organizationId, key), scope);
}

/** PATCH: the fields sent; `values` merged by environment (the caller's own). */
export async function updateVariable(caller: Caller, key: string, input: UpdateVariableInput): Promise<VariableView> {
  if (Object.values(input).every((field) => field === undefined)) {
    throw new BadRequestError('At least one field must be provided to update');
  }
  await checkValues(caller, input.values);
  return retryOnStaleWrite(async () => {
    const current = await requireVariable(caller.organizationId, key);
    const values = { ...current.values };
    for (const { _environmentId, value } of input.values ?? []) values[_environmentId] = await sealValue(current.dataKey, value);
    const next: StoredVariable = {
      ...current,
      ...(input.key !== undefined && { key: input.key }),
      ...(input.type !== undefined && { valueType: input.type }),
      ...(input.isSecret !== undefined && { isSecret: input.isSecret }),
      values,
      updatedAt: new Date().toISOString(),
      updatedBy: caller.userId,
    };
    await replaceVariable(current, next);
    return toVariableView(next, caller);
  });
}

/**
 * Removes the caller's environment's value; the variable goes with its last value (or at once if
 * it has none). A variable whose values are all other environments' is not the caller's to remove.
 */
export async function removeVariable(caller: Caller, key: string): Promise<void> {
  await retryOnStaleWrite(async () => {
    const current = await requireVariable(caller.organizationId, key);
    const { [caller.environmentId]: own, ...others } = current.values;
    if (own === undefined && Object.keys(others).length > 0) {
      throw new NotFoundError(`Environment variable with key "${key}" has no value for the authenticated environment`);
    }
    if (Object.keys(others).length === 0) return deleteVariable(current);
    return replaceVariable(current, { ...current, values: others, updatedAt: new Date().toISOString(), updatedBy: caller.userId });
  });
}
