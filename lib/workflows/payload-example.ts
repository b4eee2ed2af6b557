import { templateVariables, type StoredWorkflow } from './model.ts';

// An example payload for the workflow: from its payload schema when it has one (defaults,
// examples and enums first, else a `{{payload.<path>}}` placeholder per string), otherwise from
// the payload variables its templates use (as read when saved). Null when neither says anything.

type Schema = Record<string, unknown>;
const MAX_DEPTH = 8;

function exampleOf(schema: Schema, path: string, depth: number): unknown {
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
    case 'array': {
      const items = schema.items as Schema | undefined;
      return items && depth < MAX_DEPTH ? [exampleOf(items, `${path}[0]`, depth + 1)] : [];
    }
    case 'object':
    case undefined: {
      const properties = schema.properties as Record<string, Schema> | undefined;
      if (!properties) return type === 'object' ? {} : `{{${path}}}`;
      if (depth >= MAX_DEPTH) return {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, exampleOf(sub, `${path}.${key}`, depth + 1)]),
      );
    }
    default:
      return `{{${path}}}`;
  }
}

/** An example value of a JSON Schema, placeholders named from `path` (a layout preview's subscriber too). */
export const schemaExample = (schema: Schema, path: string): unknown => exampleOf(schema, path, 0);

function fromTemplates(workflow: Pick<StoredWorkflow, 'steps'>): Record<string, unknown> | null {
  const example: Record<string, unknown> = {};
  for (const path of workflow.steps.flatMap(templateVariables)) {
    if (path[0] !== 'payload' || path.length < 2) continue;
    let node = example;
    const keys = path.slice(1);
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] ??= `{{${path.join('.')}}}`;
      } else {
        // A numeric segment (a block email's repeat reads `payload.items[0].name`) makes a list.
        const container = typeof keys[i + 1] === 'number' ? [] : {};
        if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key]) !== Array.isArray(container)) node[key] = container;
        node = node[key] as Record<string, unknown>;
      }
    });
  }
  return Object.keys(example).length > 0 ? example : null;
}

export function payloadExample(workflow: Pick<StoredWorkflow, 'steps' | 'payloadSchema'>): Record<string, unknown> | null {
  if (!workflow.payloadSchema) return fromTemplates(workflow);
  const example = exampleOf(workflow.payloadSchema, 'payload', 0);
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
}
