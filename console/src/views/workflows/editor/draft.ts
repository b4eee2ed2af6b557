import { controlsDataSchema } from '../../../../../lib/workflows/controls.ts';
import { STEP_TYPES, type Origin, type StepType } from '../../../../../lib/workflows/model.ts';
import { uiSchemaOf } from '../../../../../lib/workflows/ui-schema.ts';
import { stepVariables } from '../../../../../lib/workflows/variables.ts';
import type { StepIssues, Workflow, WorkflowStep } from '../types.ts';

/** The parts of a step's body the editor reads beyond what the workflow page does. */
type ApiStep = WorkflowStep & { controls: { uiSchema?: Record<string, unknown> } };

// The workflow being edited, as the form holds it, and the v2 body it is saved as. A step already
// saved keeps its `_id` and `stepId`, so a PUT changes it in place (its issues, its activity); a
// new one is named by the API. A new step's control schema and ui schema are the functions the
// API answers them with (lib/workflows), so a step reads the same before and after its first save.

export { STEP_TYPES, type StepType };

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  exclusiveMinimum?: number;
}

export interface UiProperty {
  component: string;
  placeholder?: unknown;
}

export interface DraftStep {
  /** This form's own key for the step: stable while it moves. */
  key: string;
  _id?: string;
  stepId?: string;
  name: string;
  type: StepType;
  values: Record<string, unknown>;
  dataSchema: JsonSchema;
  uiSchema: { properties?: Record<string, UiProperty> };
  /** The API's issues of the saved step, by control. */
  issues?: StepIssues;
}

export interface Draft {
  name: string;
  workflowId: string;
  description: string;
  tags: string;
  payloadSchema: string;
  /** A new workflow starts active: it is built to be sent (the API's default is inactive). */
  active: boolean;
  steps: DraftStep[];
}

let counter = 0;
const newKey = () => `step-${++counter}`;

/** What a new step of `type` starts with: the values a person would otherwise type first. */
const STARTING_VALUES: Partial<Record<StepType, Record<string, unknown>>> = {
  in_app: { subject: '', body: '' },
  email: { subject: '', body: '', editorType: 'html' },
  sms: { body: '' },
  chat: { body: '' },
  push: { subject: '', body: '' },
  digest: { amount: 5, unit: 'minutes' },
  delay: { type: 'regular', amount: 5, unit: 'minutes' },
  throttle: { type: 'fixed', amount: 1, unit: 'hours', threshold: 1 },
};

export const STEP_NAMES: Record<StepType, string> = {
  in_app: 'In-app message',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat message',
  push: 'Push notification',
  digest: 'Digest',
  delay: 'Delay',
  throttle: 'Throttle',
  custom: 'Custom step',
};

export function newStep(type: StepType): DraftStep {
  return {
    key: newKey(),
    name: STEP_NAMES[type],
    type,
    values: { ...STARTING_VALUES[type] },
    dataSchema: controlsDataSchema(type) as JsonSchema,
    uiSchema: uiSchemaOf(type) as DraftStep['uiSchema'],
  };
}

/** The paths of a JSON Schema's leaves and objects (`subscriber.firstName`, `payload.items`). */
export function schemaPaths(schema: unknown, prefix = ''): string[] {
  const properties = (schema as JsonSchema | undefined)?.properties;
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, child]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return [path, ...schemaPaths(child, path)];
  });
}

/**
 * The paths the text of the step at `index` may name, as the API's `variables` of it will say once
 * saved (lib/workflows/variables.ts, the one statement of them): the subscriber, the payload
 * schema being edited, the outputs of the saved steps above it (a new step has no stepId to be
 * named by until it is saved) and the environment's variables.
 */
export function stepVariablePaths(
  steps: DraftStep[],
  index: number,
  payloadSchema: Record<string, unknown> | null,
  origin: string | undefined,
): string[] {
  const named = steps.slice(0, index).flatMap((step) => (step.stepId ? [{ stepId: step.stepId, type: step.type }] : []));
  const paths = schemaPaths(stepVariables({ steps: named, payloadSchema, origin: origin as Origin | undefined }, named.length));
  // An object whose fields are listed is offered by its fields (`payload.orderId`, not `payload`).
  return paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)));
}

/** The payload schema as typed: null when empty, undefined while it is not a JSON object. */
export function parsedSchema(text: string): Record<string, unknown> | null | undefined {
  if (!text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const emptyDraft = (): Draft => ({
  name: '',
  workflowId: '',
  description: '',
  tags: '',
  payloadSchema: '',
  active: true,
  steps: [],
});

export function draftOf(workflow: Workflow): Draft {
  return {
    name: workflow.name,
    workflowId: workflow.workflowId,
    description: workflow.description ?? '',
    tags: workflow.tags.join(', '),
    payloadSchema: workflow.payloadSchema ? JSON.stringify(workflow.payloadSchema, null, 2) : '',
    active: workflow.active,
    steps: (workflow.steps as ApiStep[]).map((step) => ({
      key: newKey(),
      _id: step._id,
      stepId: step.stepId,
      name: step.name,
      type: step.type as StepType,
      values: step.controls.values,
      dataSchema: (step.controls.dataSchema ?? controlsDataSchema(step.type as StepType)) as JsonSchema,
      uiSchema: (step.controls.uiSchema ?? uiSchemaOf(step.type as StepType)) as DraftStep['uiSchema'],
      ...(step.issues && { issues: step.issues }),
    })),
  };
}

export class DraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The body of POST /v2/workflows (with `workflowId`) or PUT /v2/workflows/{id} (without). */
export function bodyOf(draft: Draft, creating: boolean): Record<string, unknown> {
  let payloadSchema: unknown = null;
  if (draft.payloadSchema.trim()) {
    try {
      payloadSchema = JSON.parse(draft.payloadSchema);
    } catch (error) {
      throw new DraftError('payloadSchema', `Not valid JSON: ${(error as Error).message}`);
    }
  }
  return {
    name: draft.name,
    ...(creating && draft.workflowId.trim() && { workflowId: draft.workflowId.trim() }),
    description: draft.description,
    tags: [
      ...new Set(
        draft.tags
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
      ),
    ],
    payloadSchema,
    active: draft.active,
    steps: draft.steps.map((step) => ({
      ...(step._id && { _id: step._id }),
      ...(step.stepId && { stepId: step.stepId }),
      name: step.name,
      type: step.type,
      controlValues: withoutEmpty(step.values),
    })),
  };
}

/** Fields left empty are left out: the API then applies the kind's default (or reports a missing one as an issue). */
function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined));
}
