import { ValidationError, type FieldError } from '../errors.ts';
import { credentialSchema } from '../providers/credential-checks.ts';
import type { ProviderDef } from './catalogue.ts';

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
