import { ApiError } from '../../api/errors.ts';

// The 422 body's per-field messages (`errors: {field: {messages}}`), so a form can show each one
// next to its field; `rest` holds those of fields the form does not show.

export type FieldMessages = Record<string, string[]>;

export function fieldMessages(error: unknown): FieldMessages {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const errors = (error.body as { errors?: Record<string, { messages?: unknown }> } | null)?.errors;
  const result: FieldMessages = {};
  for (const [field, entry] of Object.entries(errors ?? {})) {
    result[field] = Array.isArray(entry?.messages) ? entry.messages.map(String) : [];
  }
  return result;
}

/** The messages of fields not in `shown`, as `field: message` lines. */
export function otherMessages(messages: FieldMessages, shown: readonly string[]): string[] {
  return Object.entries(messages)
    .filter(([field]) => !shown.includes(field))
    .flatMap(([field, list]) => list.map((message) => `${field}: ${message}`));
}
