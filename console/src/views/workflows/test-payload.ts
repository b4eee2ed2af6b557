import { schemaExampleWith, type JsonSchema } from '../../../../lib/workflows/schema-example.ts';

// The payload a test event starts from, generated from the workflow's payload schema (the walk
// the API's payloadExample makes too: defaults, else examples, else a value of the type, down
// through nested objects and arrays). A string the schema gives no value for is a plain value a
// person would send, not the API's `{{payload.x}}` placeholder. Unit-tested in
// test/unit/console-test-payload.test.ts.

function plainString(schema: JsonSchema, _path: string, name: string): string {
  switch (schema.format) {
    case 'email':
      return 'user@example.com';
    case 'date-time':
      return new Date(0).toISOString();
    case 'date':
      return '1970-01-01';
    case 'uri':
    case 'url':
      return 'https://example.com';
    default:
      return name;
  }
}

/** The payload for `payloadSchema`; `{}` without one (or when it does not describe an object). */
export function testPayload(payloadSchema: JsonSchema | null | undefined): Record<string, unknown> {
  if (!payloadSchema) return {};
  const value = schemaExampleWith(payloadSchema, 'payload', plainString);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
