import * as z from '../zod.ts';

// The rules a context's type, id and data follow, wherever a context is named: a trigger's or a
// session's `context` and the /v2/contexts routes. Types follow the id rule too, so that the
// `type:id` keys split back unambiguously.

export const MAX_CONTEXT_DATA_BYTES = 64 * 1024;
const CONTEXT_ID = /^[a-zA-Z0-9_-]+$/;

/** A context type or id: 1-100 letters, digits, `-` and `_`. */
export const contextIdSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .check(
      z.minLength(1, `${field} must not be empty`),
      z.maxLength(100, `${field} must be at most 100 characters`),
      z.regex(CONTEXT_ID, `${field} may only contain letters, digits, - and _`),
    );

/** A context's data: an object of at most 64 KB as JSON. */
export const contextDataSchema = (field: string) =>
  z
    .record(z.string(), z.unknown(), { error: `${field} must be an object` })
    .check(
      z.refine(
        (data) => Buffer.byteLength(JSON.stringify(data)) <= MAX_CONTEXT_DATA_BYTES,
        `${field} must be at most ${MAX_CONTEXT_DATA_BYTES / 1024} KB`,
      ),
    );
