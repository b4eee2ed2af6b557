import { templateVariables, type StoredWorkflow } from './model.ts';
import { schemaExampleWith, type JsonSchema } from './schema-example.ts';

// An example payload for the workflow: from its payload schema when it has one (defaults,
// examples and enums first, else a `{{payload.<path>}}` placeholder per string), otherwise from
// the payload variables its templates use (as read when saved). Null when neither says anything.

/** A string (or untyped) leaf as the Liquid variable it stands for. */
const liquidPlaceholder = (_schema: JsonSchema, path: string) => `{{${path}}}`;

/** An example value of a JSON Schema, placeholders named from `path` (a layout preview's subscriber too). */
export const schemaExample = (schema: JsonSchema, path: string): unknown => schemaExampleWith(schema, path, liquidPlaceholder);

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
        if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key]) !== Array.isArray(container))
          node[key] = container;
        node = node[key] as Record<string, unknown>;
      }
    });
  }
  return Object.keys(example).length > 0 ? example : null;
}

export function payloadExample(workflow: Pick<StoredWorkflow, 'steps' | 'payloadSchema'>): Record<string, unknown> | null {
  if (!workflow.payloadSchema) return fromTemplates(workflow);
  const example = schemaExample(workflow.payloadSchema, 'payload');
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
}
