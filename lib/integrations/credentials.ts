import { ValidationError, type FieldError } from '../errors.ts';
import { canDeliver, credentialSchema } from '../providers/credential-checks.ts';
import type { ProviderDef } from './providers.ts';

/**
 * An integration may only be active when its provider has delivery code: one that cannot send is
 * refused (422 on `field`) rather than accepted and left to fail every step.
 */
export function assertDeliverable(provider: ProviderDef, field: string, value: unknown): void {
  if (canDeliver(provider.id, provider.channel)) return;
  throw ValidationError.forField(
    field,
    `${provider.displayName} (${provider.id}) is not supported for delivery yet, so its integration cannot be active; save it inactive or choose a supported provider`,
    value,
  );
}

/**
 * An active integration must satisfy its provider's credential schema (the catalogue's required
 * fields where the provider has none): 422 with one entry per offending credential.
 */
export function assertCredentialsComplete(provider: ProviderDef, credentials: Record<string, unknown>): void {
  const result = credentialSchema(provider.id).safeParse(credentials);
  if (result.success) return;
  const errors: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? `credentials.${issue.path.map(String).join('.')}` : 'credentials';
    const value = issue.path.length > 0 ? (credentials[String(issue.path[0])] ?? null) : credentials;
    const entry = (errors[key] ??= { messages: [], value });
    if (!entry.messages.includes(issue.message)) entry.messages.push(issue.message);
  }
  throw new ValidationError(errors);
}
