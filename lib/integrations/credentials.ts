import { ValidationError, type FieldError } from '../errors.ts';
import { missingCredentials, type ProviderDef } from './providers.ts';

/** An active integration must have every credential its provider requires (422 lists the gaps). */
export function assertCredentialsComplete(provider: ProviderDef, credentials: Record<string, unknown>): void {
  const missing = missingCredentials(provider, credentials);
  if (missing.length === 0) return;
  const errors: Record<string, FieldError> = {};
  for (const key of missing) {
    errors[`credentials.${key}`] = {
      messages: [`${key} is required by ${provider.displayName} when the integration is active`],
      value: credentials[key] ?? null,
    };
  }
  throw new ValidationError(errors);
}
