import * as z from '../zod.ts';
import { findProvider } from '../integrations/catalogue.ts';

// A provider's credential schema, built from the catalogue's field list so the required fields
// are written down once; a provider adds checks of what its API needs of a value (a URL, a port
// number) and rules between fields. The request schema has already typed every key, so this
// checks presence and content only. Blank ('' / whitespace) counts as absent.

/** A problem with a present value, or undefined when it is fine. */
export type ValueCheck = (value: unknown) => string | undefined;
/** Rules between fields: `report(key, message)` for each problem. */
export type CredentialRules = (credentials: Record<string, unknown>, report: (key: string, message: string) => void) => void;

export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `https://${value.trim()}`);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An http(s) URL; without a scheme it means https. */
export const urlCheck =
  (key: string): ValueCheck =>
  (value) =>
    isHttpUrl(value) ? undefined : `${key} must be an http(s) URL`;

export const portCheck =
  (key: string): ValueCheck =>
  (value) => {
    const port = Number(value);
    return Number.isInteger(port) && port > 0 && port < 65536 ? undefined : `${key} must be a port number (1-65535)`;
  };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const isHeaderName = (value: unknown): boolean => typeof value === 'string' && HEADER_NAME.test(value.trim());
export const headerNameCheck =
  (key: string): ValueCheck =>
  (value) =>
    isHeaderName(value) ? undefined : `${key} must be an HTTP header name`;

/** A required field: any value but absent or blank. */
export function requiredField(key: string, providerName: string) {
  return z.unknown().check(
    z.refine((value) => !isBlank(value), {
      message: `${key} is required by ${providerName} when the integration is active`,
      abort: true,
    }),
  );
}

/** A field checked only when present and not blank (zod skips optional fields that are absent). */
export function checkedField(check: ValueCheck) {
  return z.optional(z.unknown()).check(
    z.superRefine((value, ctx) => {
      const problem = isBlank(value) ? undefined : check(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}

export const urlField = (key: string) => checkedField(urlCheck(key));
export const portField = (key: string) => checkedField(portCheck(key));

/**
 * The catalogue's required fields of `providerId`, the `checks` on present values (a `baseUrl`
 * must always be a URL) and the provider's `rules` between fields. Other keys pass through
 * untouched. Field by field, so a provider may also `z.extend()` it (without `rules`).
 */
export function catalogueSchema(providerId: string, checks: Record<string, ValueCheck> = {}, rules?: CredentialRules): z.ZodMiniObject {
  const provider = findProvider(providerId);
  if (!provider) throw new Error(`${providerId} is not in the provider catalogue`);
  const required = new Set(provider.credentials.filter((f) => f.required).map((f) => f.key as string));
  const allChecks: Record<string, ValueCheck> = { baseUrl: urlCheck('baseUrl'), ...checks };
  const shape: Record<string, z.ZodMiniType> = {};
  for (const key of new Set([...required, ...Object.keys(allChecks)])) {
    const check = allChecks[key];
    shape[key] = required.has(key)
      ? check
        ? z.pipe(requiredField(key, provider.displayName), checkedField(check))
        : requiredField(key, provider.displayName)
      : checkedField(check!);
  }
  const schema = z.looseObject(shape);
  if (!rules) return schema;
  return schema.check(
    z.superRefine((credentials, ctx) => rules(credentials, (key, message) => ctx.addIssue({ code: 'custom', path: [key], message }))),
  );
}
