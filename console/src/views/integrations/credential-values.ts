import {
  BOOLEAN_CREDENTIAL_KEYS,
  SECRET_CREDENTIAL_KEYS,
  type CredentialKey,
  type ProviderDef,
} from '../../../../lib/integrations/catalogue.ts';
import type { CredentialValue } from './types.ts';

// Credentials as a form holds them (text per field, a flag per boolean, tlsOptions as JSON text)
// and as the API takes them. Keys the form does not show (set through the API) are sent back as
// they were, since a PUT replaces the whole credentials object.

export type FormCredentials = Record<string, string | boolean>;

export type FieldKind = 'boolean' | 'json' | 'secret' | 'text';

export function fieldKind(key: CredentialKey): FieldKind {
  if ((BOOLEAN_CREDENTIAL_KEYS as readonly string[]).includes(key)) return 'boolean';
  if (key === 'tlsOptions') return 'json';
  return SECRET_CREDENTIAL_KEYS.includes(key) ? 'secret' : 'text';
}

export function formCredentials(provider: ProviderDef, stored: Record<string, CredentialValue | undefined> = {}): FormCredentials {
  const values: FormCredentials = {};
  for (const { key } of provider.credentials) {
    const value = stored[key];
    const kind = fieldKind(key);
    if (kind === 'boolean') values[key] = value === true;
    else if (kind === 'json') values[key] = value && typeof value === 'object' ? JSON.stringify(value, null, 2) : '';
    else values[key] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** The credentials to send, or the fields whose text is not what they need (JSON). */
export function credentialsToSend(
  provider: ProviderDef,
  values: FormCredentials,
  stored: Record<string, CredentialValue | undefined> = {},
): { credentials: Record<string, CredentialValue>; errors: Record<string, string> } {
  const credentials: Record<string, CredentialValue> = {};
  for (const [key, value] of Object.entries(stored)) if (value !== undefined) credentials[key] = value;
  const errors: Record<string, string> = {};
  for (const { key } of provider.credentials) {
    const value = values[key];
    delete credentials[key];
    const kind = fieldKind(key);
    if (kind === 'boolean') {
      if (value === true || stored[key] !== undefined) credentials[key] = value === true;
    } else if (typeof value === 'string' && value.trim() !== '') {
      if (kind !== 'json') credentials[key] = value;
      else {
        const parsed = parseObject(value);
        if (parsed) credentials[key] = parsed;
        else errors[`credentials.${key}`] = `${key} must be a JSON object`;
      }
    }
  }
  return { credentials, errors };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
