import { ApiError } from '../../api/errors.ts';

/**
 * The messages of a 422 body by field (`errors: { "<field>": { messages: [...] } }`), for a form
 * to show next to its inputs; empty for any other error.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const errors = (error.body as { errors?: Record<string, { messages?: unknown }> } | null)?.errors ?? {};
  return Object.fromEntries(
    Object.entries(errors).map(([field, detail]) => [field, Array.isArray(detail.messages) ? detail.messages.map(String).join('; ') : 'Invalid value']),
  );
}
