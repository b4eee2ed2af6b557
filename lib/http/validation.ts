import type * as z from '../zod.ts';
import { ValidationError, type FieldError } from '../errors.ts';

// Turns zod's issues into the 422 body: one entry per offending field, keyed by its dotted path,
// with what was sent there.

export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown, rootName: string): z.infer<S> {
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

/**
 * Request bodies may nest at most this deep (the body itself is level 1). DynamoDB refuses items
 * nested deeper than 32 levels, and free-form fields (subscriber and tenant data, control values,
 * payload schemas) are stored as sent, so deeper bodies are refused before anything runs.
 */
export const MAX_BODY_DEPTH = 20;
/**
 * Numbers a body may carry: what JavaScript holds exactly as an integer, and DynamoDB stores
 * (the SDK refuses unsafe integers, the table magnitudes below 1e-130).
 */
const MIN_MAGNITUDE = 1e-130;

/**
 * 422 for a body the table could not store as sent, whatever the route's schema: nested deeper
 * than `limit` (named by its top-level field, not echoed: it may be too deep to serialize), a
 * number out of the storable range, or a `__proto__` key, which copying the body into a new
 * object (as schema parsing does) would turn into that object's prototype (named by their path).
 */
export function assertStorableBody(body: unknown, limit = MAX_BODY_DEPTH): void {
  // Iterative: a body of any depth is walked without growing the call stack.
  const pending: [value: unknown, depth: number, path: string, top: string][] = [[body, 1, '', 'body']];
  while (pending.length > 0) {
    const [value, depth, path, top] = pending.pop()!;
    if (typeof value === 'number') {
      const magnitude = Math.abs(value);
      if (magnitude > Number.MAX_SAFE_INTEGER || (magnitude > 0 && magnitude < MIN_MAGNITUDE)) {
        const field = path || 'body';
        throw ValidationError.forField(
          field,
          `${field} must be a number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}, ` +
            `and not closer to 0 than ${MIN_MAGNITUDE}`,
          value,
        );
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) throw ValidationError.forField(top, `${top} must not be nested deeper than ${limit} levels`, null);
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key === '__proto__') throw ValidationError.forField(childPath, '__proto__ is not allowed as a key', null);
      pending.push([child, depth + 1, childPath, depth === 1 ? key : top]);
    }
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
