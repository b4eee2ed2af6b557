import { ApiError } from '../api/errors.ts';

// A 422's per-field messages (`errors: {"<field>": {messages}}`, behavior.md), shown under the
// form field they are about.

/** The API's messages about `field` in a 422 body, joined; undefined when it named no such field. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return undefined;
  const errors = (error.body as { errors?: Record<string, { messages?: unknown }> }).errors;
  const messages = errors?.[field]?.messages;
  return Array.isArray(messages) && messages.length > 0 ? messages.map(String).join('; ') : undefined;
}

/** The `aria-invalid` and `aria-describedby` an input takes, and the `<small>` that names its problem. */
export function fieldProblem(id: string, message: string | undefined) {
  return {
    inputProps: message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-problem` } : {},
    note: message ? <small id={`${id}-problem`}>{message}</small> : null,
  };
}
