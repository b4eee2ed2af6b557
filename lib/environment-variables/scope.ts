import type { EnvScope } from '../scope.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.ts';
import { getEnvironment } from '../accounts/environments.ts';
import { scopedMessage } from '../accounts/own-environment.ts';
import { SECRET_MASK, type VariableValuesInput } from './schemas.ts';

// The values a write may set: the caller's own environment's only (an API key acts for its own
// environment), as the reference refuses an environment-scoped credential naming another; an id
// that is no environment of the organization is not found. The mask is never taken for a value.

export async function checkValues(caller: EnvScope, values: VariableValuesInput | undefined): Promise<void> {
  for (const { _environmentId, value } of values ?? []) {
    if (_environmentId !== caller.environmentId) {
      if (!(await getEnvironment(caller.organizationId, _environmentId))) {
        throw new NotFoundError(`Environment with id ${_environmentId} not found`);
      }
      throw new ForbiddenError(scopedMessage('set the value of a different environment'));
    }
    if (value === SECRET_MASK) {
      throw new BadRequestError('Submitted value matches the secret mask placeholder; provide the real value or omit the entry.');
    }
  }
}
