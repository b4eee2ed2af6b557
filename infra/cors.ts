// Cross-origin calls: a web app calls the inbox routes from its own origin, with the headers the
// reference's front-end clients send, so every call is preflighted.
// The CDK stack gives these to API Gateway's CORS configuration; the local API Gateway answers
// the same way (infra/local/api-gateway.ts). Which origins may call is a stage setting.

export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Novu-API-Version',
  'Novu-Client-Version',
  'Novu-Application-Identifier',
  'Novu-User-Agent',
  'User-Agent',
  'idempotency-key',
] as const;

export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** How long a browser may keep a preflight's answer. */
export const CORS_MAX_AGE_SECONDS = 600;

/** Origins from a comma-separated setting; none set: any origin (`*`). */
export function parseAllowedOrigins(setting: string | undefined): string[] {
  const origins = (setting ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return origins.length > 0 ? origins : ['*'];
}

/** The CORS headers of an answer to `origin`, or none when the origin may not call. */
export function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (!origin) return {};
  if (!allowed.includes('*') && !allowed.includes(origin)) return {};
  return { 'access-control-allow-origin': allowed.includes('*') ? '*' : origin, ...(allowed.includes('*') ? {} : { vary: 'Origin' }) };
}

export function preflightHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  const base = corsHeaders(origin, allowed);
  if (!base['access-control-allow-origin']) return {};
  return {
    ...base,
    'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
    'access-control-allow-methods': CORS_ALLOWED_METHODS.join(','),
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
  };
}
