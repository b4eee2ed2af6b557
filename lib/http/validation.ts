import type { z } from 'zod';
import { ValidationError, type FieldError } from '../errors.ts';

// Turns zod's issues into the 422 body: one entry per offending field, keyed by its dotted path,
// with what was sent there.

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, rootName: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;

  const errors: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : rootName;
    const entry = (errors[field] ??= { messages: [], value: valueAt(input, issue.path) ?? null });
    entry.messages.push(issue.message);
  }
  throw new ValidationError(errors);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
