import { ApiError } from '../api/errors.ts';

// A 422's per-field messages (`errors: {"<field>": {messages}}`), shown under the form field they
// are about; those of fields the form does not show are listed together under the form.

/** Every field's messages in an API error's body, joined per field; empty for any other error. */
export function fieldMessages(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return {};
  const errors = (error.body as { errors?: Record<string, { messages?: unknown }> }).errors ?? {};
  const result: Record<string, string> = {};
  for (const [field, entry] of Object.entries(errors)) {
    result[field] = Array.isArray(entry?.messages) && entry.messages.length > 0 ? entry.messages.map(String).join('; ') : 'Invalid value';
  }
  return result;
}

/** The API's messages about `field` in a 422 body, joined; undefined when it named no such field. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  return fieldMessages(error)[field];
}

/** The `aria-invalid` and `aria-describedby` an input takes, and the `<small>` that names its problem. */
export function fieldProblem(id: string, message: string | undefined) {
  return {
    inputProps: message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {},
    note: message ? (
      <small id={`${id}-error`} className="field-error">
        {message}
      </small>
    ) : null,
  };
}

/** The messages about fields not in `shown`, as `field: message` lines under the form. */
export function OtherFieldMessages({ messages, shown }: { messages: Record<string, string>; shown: readonly string[] }) {
  const others = Object.entries(messages).filter(([field]) => !shown.includes(field));
  if (others.length === 0) return null;
  return (
    <ul className="field-error">
      {others.map(([field, message]) => (
        <li key={field}>
          {field}: {message}
        </li>
      ))}
    </ul>
  );
}
