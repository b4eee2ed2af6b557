import { newAjv } from './json-schema.ts';

// A workflow's payloadSchema must be a JSON Schema that compiles: the trigger validates payloads
// against it (when validatePayload is on), so a broken one is refused when saved, not at trigger.
// Compiled schemas are cached by ajv, keyed by the schema object.
const ajv = newAjv();

/** Why the schema cannot be used, or undefined when it can. */
export function payloadSchemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return `payloadSchema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}
