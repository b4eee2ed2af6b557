// The payload a test event starts from, generated from the workflow's payload schema (JSON
// Schema): a property's default, else its first example, else a value of its type, down through
// nested objects and arrays. Pure, so test/unit/console-test-payload.test.ts checks it alone.

type Schema = Record<string, unknown>;

// A schema that refers to itself would otherwise recurse for ever.
const MAX_DEPTH = 8;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A placeholder string that says what belongs there (a person edits it before sending). */
function stringPlaceholder(schema: Schema, name: string): string {
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
      return name || 'text';
  }
}

function valueOf(schema: Schema, name: string, depth: number): unknown {
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return stringPlaceholder(schema, name);
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return isSchema(schema.items) && depth < MAX_DEPTH ? [valueOf(schema.items, name, depth + 1)] : [];
    case 'object':
    case undefined: {
      if (!isSchema(schema.properties)) return type === 'object' ? {} : stringPlaceholder(schema, name);
      if (depth >= MAX_DEPTH) return {};
      return Object.fromEntries(
        Object.entries(schema.properties).map(([key, sub]) => [key, isSchema(sub) ? valueOf(sub, key, depth + 1) : key]),
      );
    }
    default:
      return stringPlaceholder(schema, name);
  }
}

/** The payload for `payloadSchema`; `{}` without one (or when it does not describe an object). */
export function testPayload(payloadSchema: Schema | null | undefined): Record<string, unknown> {
  if (!payloadSchema) return {};
  const value = valueOf(payloadSchema, '', 0);
  return isSchema(value) ? value : {};
}
