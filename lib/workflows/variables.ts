import { payloadAtTopLevel, type StoredStep, type StoredWorkflow } from './model.ts';

// What a step's templates may reference, as a JSON Schema (the step's `variables`): the
// subscriber, the payload (its schema when the workflow has one) and the outputs of earlier
// steps; templates of v1 workflows also name payload values at the top level (`{{orderId}}`,
// lib/pipeline/variables.ts). `isAllowedVariable` checks a referenced path against that schema.

/** The names at the top of what templates see; v1 payload values at the top never hide these. */
export const TOP_LEVEL_VARIABLE_ROOTS: ReadonlySet<string> = new Set([
  'subscriber',
  'payload',
  'step',
  'steps',
  'tenant',
  'actor',
  'context',
  'workflow',
  'env',
]);

export type Schema = Record<string, unknown>;

const text = { type: 'string' };
export const SUBSCRIBER: Schema = {
  type: 'object',
  properties: {
    subscriberId: text,
    firstName: text,
    lastName: text,
    email: text,
    phone: text,
    avatar: text,
    locale: text,
    timezone: text,
    isOnline: { type: 'boolean' },
    lastOnlineAt: text,
    data: { type: 'object', additionalProperties: true },
  },
  required: ['subscriberId'],
  additionalProperties: false,
};

export const FREE_OBJECT: Schema = { type: 'object', additionalProperties: true };

const DIGEST_EVENTS: Schema = {
  type: 'array',
  items: { type: 'object', properties: { id: text, time: text, payload: FREE_OBJECT }, additionalProperties: true },
};

/** What a step of each kind leaves for later steps. */
function outputOf(step: Pick<StoredStep, 'type'>): Schema {
  switch (step.type) {
    case 'digest':
      return { type: 'object', properties: { events: DIGEST_EVENTS, eventCount: { type: 'number' } }, additionalProperties: false };
    case 'in_app':
      return {
        type: 'object',
        properties: { seen: { type: 'boolean' }, read: { type: 'boolean' }, lastSeenDate: text, lastReadDate: text },
        additionalProperties: false,
      };
    default:
      return FREE_OBJECT;
  }
}

/** What a step's variables depend on (a stored workflow, or the console editor's draft of one). */
export interface VariableSource extends Pick<StoredWorkflow, 'payloadSchema'>, Partial<Pick<StoredWorkflow, 'origin'>> {
  steps: Pick<StoredStep, 'stepId' | 'type'>[];
}

export function stepVariables(workflow: VariableSource, stepIndex: number): Schema {
  const earlier = workflow.steps.slice(0, stepIndex);
  const properties: Record<string, Schema> = {
    subscriber: SUBSCRIBER,
    payload: workflow.payloadSchema ?? FREE_OBJECT,
    steps: {
      type: 'object',
      properties: Object.fromEntries(earlier.map((step) => [step.stepId, outputOf(step)])),
      additionalProperties: false,
    },
    // The environment's variables (lib/environment-variables): any key, a string each.
    env: { type: 'object', additionalProperties: { type: 'string' } },
  };
  // Templates after a digest may use `{{step.events}}`, the events the digest gathered.
  if (earlier.some((step) => step.type === 'digest')) {
    properties.step = {
      type: 'object',
      properties: { events: DIGEST_EVENTS, total_count: { type: 'number' }, digest: { type: 'boolean' } },
      additionalProperties: false,
    };
  }
  return { type: 'object', properties, additionalProperties: payloadAtTopLevel(workflow.origin) };
}

const ARRAY_MEMBERS = new Set(['size', 'first', 'last']);

/**
 * Whether a variable path exists in the schema. An object with listed properties allows only
 * those (unless it says additionalProperties), so a payload schema must name what templates use.
 */
export function isAllowedVariable(schema: Schema, path: readonly (string | number)[]): boolean {
  let current: Schema | undefined = schema;
  for (const segment of path) {
    if (!current) return true; // below a free-form value anything goes
    const type = current.type;
    if (type === 'array' || current.items !== undefined) {
      if (typeof segment === 'number' || /^\d+$/.test(String(segment))) {
        current = current.items as Schema | undefined;
        continue;
      }
      return ARRAY_MEMBERS.has(String(segment));
    }
    const properties = current.properties as Record<string, Schema> | undefined;
    const additional = current.additionalProperties;
    if (properties && String(segment) in properties) {
      current = properties[String(segment)];
    } else if (properties || additional === false) {
      if (additional === undefined || additional === false) return false;
      current = typeof additional === 'object' ? (additional as Schema) : undefined;
    } else if (type === 'object' || type === undefined) {
      current = undefined;
    } else {
      return segment === 'size'; // a string's size; nothing else lies below a scalar
    }
  }
  return true;
}
