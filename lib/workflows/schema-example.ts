// An example value of a JSON Schema: its default, else its first example, const or enum value,
// else a value of its type, down through nested objects and arrays. What a leaf with none of
// those gets (a string, or a property without a type) is the caller's: the API names it as a
// Liquid placeholder (payload-example.ts), the console's test-event form as a plain value.
// No imports, so the console bundles it too.

export type JsonSchema = Record<string, unknown>;

/** The value of a leaf the schema gives none for; `path` as `payload.items[0].sku`, `name` its last key. */
export type Placeholder = (schema: JsonSchema, path: string, name: string) => unknown;

// A schema that refers to itself would otherwise recurse for ever.
const MAX_DEPTH = 8;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

function exampleOf(schema: JsonSchema, path: string, name: string, placeholder: Placeholder, depth: number): unknown {
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return isSchema(schema.items) && depth < MAX_DEPTH ? [exampleOf(schema.items, `${path}[0]`, name, placeholder, depth + 1)] : [];
    case 'object':
    case undefined: {
      if (!isSchema(schema.properties)) return type === 'object' ? {} : placeholder(schema, path, name);
      if (depth >= MAX_DEPTH) return {};
      return Object.fromEntries(
        Object.entries(schema.properties).map(([key, sub]) => [
          key,
          exampleOf(isSchema(sub) ? sub : {}, `${path}.${key}`, key, placeholder, depth + 1),
        ]),
      );
    }
    default:
      return placeholder(schema, path, name);
  }
}

/** An example value of `schema`, its leaves named from `path` (e.g. `payload`). */
export const schemaExampleWith = (schema: JsonSchema, path: string, placeholder: Placeholder): unknown =>
  exampleOf(schema, path, path, placeholder, 0);
