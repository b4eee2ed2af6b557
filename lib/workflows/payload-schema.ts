import { ValidationError } from '../errors.ts';
import { newAjv } from './json-schema.ts';

// A workflow's payloadSchema must be a JSON Schema that compiles: the trigger validates payloads
// against it (when validatePayload is on), so a broken one is refused when saved, not at trigger.
// Checked by the write use cases, not in the request schema (schemas.ts), so that routes which
// only read workflows do not bundle ajv.

/** 422 at `payloadSchema` (the request schema's error body) when a schema sent cannot be used. */
export async function assertPayloadSchema(schema: Record<string, unknown> | null | undefined): Promise<void> {
  const problem = schema ? await payloadSchemaProblem(schema) : undefined;
  if (problem) throw ValidationError.forField('payloadSchema', problem, schema);
}

/** Why the schema cannot be used, or undefined when it can. */
async function payloadSchemaProblem(schema: Record<string, unknown>): Promise<string | undefined> {
  try {
    // A fresh instance each time: one that kept its schemas would grow with every save and refuse
    // a second schema with the same `$id` (the same workflow saved twice in one container).
    (await newAjv()).compile(schema);
    return undefined;
  } catch (error) {
    return `payloadSchema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}
