import * as z from '../zod.ts';
import { CONTROL_SCHEMAS } from './controls.ts';
import { STEP_TYPES, type StepType } from './model.ts';

// Bodies, queries and responses of the v2 workflow API. A step's control values are checked
// against its kind's schema, so a bad value is a 422 at `steps.<n>.controlValues.<field>`; an
// update's once its workflow is read, as a code-first workflow's steps take their code's controls.

const IDENTIFIER = /^[a-zA-Z0-9_:.-]+$/;
const STEP_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A workflowId, database id or slug (all ASCII, at most ~280 characters). Only bounded, so an id
 * that cannot exist is simply not found, and never longer than a DynamoDB key may be.
 */
export const workflowIdParams = z.object({ workflowId: z.string().check(z.minLength(1), z.maxLength(512)) });

const channelPreference = z.object({ enabled: z.boolean() });
/** The author's preferences: any part left out keeps the workflow default. */
export const preferencesInput = z.object({
  all: z.optional(z.object({ enabled: z.optional(z.boolean()), readOnly: z.optional(z.boolean()) })),
  channels: z.optional(
    z.object({
      email: z.optional(channelPreference),
      sms: z.optional(channelPreference),
      in_app: z.optional(channelPreference),
      chat: z.optional(channelPreference),
      push: z.optional(channelPreference),
    }),
  ),
});
export type PreferencesInput = z.infer<typeof preferencesInput>;

const stepFields = {
  _id: z.optional(z.string()),
  stepId: z.optional(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(128), z.regex(STEP_ID, 'stepId may hold letters, digits, - and _ only')),
  ),
  name: z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(256)),
};

function stepOf<T extends StepType>(type: T) {
  return z.object({
    ...stepFields,
    type: z.literal(type),
    controlValues: z.prefault(CONTROL_SCHEMAS[type] as z.ZodMiniType<Record<string, unknown>>, {}),
  });
}
const stepInput = z.discriminatedUnion('type', STEP_TYPES.map((type) => stepOf(type)) as [ReturnType<typeof stepOf>]);
export type StepInput = z.infer<typeof stepInput>;
/** A dashboard workflow's steps, each step's control values checked against its kind's schema. */
export const dashboardSteps = z.object({ steps: z.array(stepInput).check(z.maxLength(50)) });

/**
 * An update's steps as sent. Their control values are checked once the workflow is read
 * (update.ts): a dashboard workflow's against their kind's schema (`dashboardSteps`), a
 * code-first workflow's against the control schema its code declared.
 */
const sentStep = z.object({
  ...stepFields,
  type: z.enum(STEP_TYPES),
  controlValues: z.prefault(z.record(z.string(), z.unknown()), {}),
});
export type SentStep = z.infer<typeof sentStep>;

/** A workflow's tags, as both API versions take them. */
export const tagsSchema = z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))).check(
  z.maxLength(16),
  z.refine((list) => new Set(list).size === list.length, 'tags must be unique'),
);

const commonFields = {
  name: z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(256)),
  description: z.optional(z.string().check(z.maxLength(1024))),
  tags: z.optional(tagsSchema),
  active: z.optional(z.boolean()),
  validatePayload: z.optional(z.boolean()),
  /** Only its shape here: that it compiles is checked when it is saved (payload-schema.ts). */
  payloadSchema: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  isTranslationEnabled: z.optional(z.boolean()),
  severity: z.optional(z.enum(['high', 'medium', 'low', 'none'])),
  preferences: z.optional(z.object({ user: z.optional(z.nullable(preferencesInput)) })),
  steps: z.prefault(z.array(stepInput).check(z.maxLength(50)), []),
};

export const createWorkflowBody = z.object({
  ...commonFields,
  workflowId: z.optional(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(256), z.regex(IDENTIFIER, 'workflowId may hold letters, digits, _ : . - only')),
  ),
});
export type CreateWorkflowInput = z.infer<typeof createWorkflowBody>;

/** A PUT replaces the steps; other fields left out keep their value; the workflowId stays. */
export const updateWorkflowBody = z.object({ ...commonFields, steps: z.array(sentStep).check(z.maxLength(50)) });
export type UpdateWorkflowInput = z.infer<typeof updateWorkflowBody>;

export const patchWorkflowBody = z.object({
  active: z.optional(z.boolean()),
  name: z.optional(commonFields.name),
  description: commonFields.description,
  tags: commonFields.tags,
  validatePayload: commonFields.validatePayload,
  payloadSchema: commonFields.payloadSchema,
  isTranslationEnabled: commonFields.isTranslationEnabled,
  severity: commonFields.severity,
});
export type PatchWorkflowInput = z.infer<typeof patchWorkflowBody>;

export const listWorkflowsQuery = z.object({
  query: z.optional(z.string()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  orderDirection: z._default(z.enum(['ASC', 'DESC']), 'DESC'),
  orderBy: z._default(z.enum(['createdAt', 'updatedAt', 'name']), 'createdAt'),
});
export type ListWorkflowsQuery = z.infer<typeof listWorkflowsQuery>;

/** Only bounded: an environment that cannot exist is simply not found. */
export const syncWorkflowBody = z.object({ targetEnvironmentId: z.string().check(z.minLength(1), z.maxLength(256)) });

// ---- responses (documentation; the view builds them) ------------------------------------------

const user = z.object({
  _id: z.string(),
  firstName: z.optional(z.nullable(z.string())),
  lastName: z.optional(z.nullable(z.string())),
  externalId: z.optional(z.nullable(z.string())),
});
const stepIssue = z.object({ issueType: z.string(), variableName: z.optional(z.string()), message: z.string() });
const preferencesDoc = z.object({
  all: z.object({ enabled: z.boolean(), readOnly: z.boolean() }),
  channels: z.record(z.string(), channelPreference),
});

export const stepResponseSchema = z
  .object({
    _id: z.string(),
    stepId: z.string(),
    name: z.string(),
    slug: z.string(),
    type: z.enum(STEP_TYPES),
    origin: z.string(),
    workflowId: z.string(),
    workflowDatabaseId: z.string(),
    controls: z.object({
      dataSchema: z.optional(z.record(z.string(), z.unknown())),
      uiSchema: z.optional(z.record(z.string(), z.unknown())),
      values: z.record(z.string(), z.unknown()),
    }),
    controlValues: z.optional(z.record(z.string(), z.unknown())),
    variables: z.record(z.string(), z.unknown()),
    issues: z.optional(
      z.object({
        controls: z.optional(z.record(z.string(), z.array(stepIssue))),
        integration: z.optional(z.record(z.string(), z.array(stepIssue))),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'WorkflowStep' });

export const workflowResponseSchema = z
  .object({
    _id: z.string(),
    workflowId: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.optional(z.string()),
    tags: z.array(z.string()),
    active: z.boolean(),
    validatePayload: z.boolean(),
    payloadSchema: z.nullable(z.record(z.string(), z.unknown())),
    payloadExample: z.nullable(z.record(z.string(), z.unknown())),
    isTranslationEnabled: z.boolean(),
    severity: z.enum(['high', 'medium', 'low', 'none']),
    critical: z.boolean(),
    origin: z.enum(['svc-cloud', 'svc-cloud-v1', 'external']),
    status: z.enum(['ACTIVE', 'INACTIVE', 'ERROR']),
    preferences: z.object({ user: z.nullable(preferencesDoc), default: preferencesDoc }),
    steps: z.array(stepResponseSchema),
    createdAt: z.string(),
    updatedAt: z.string(),
    updatedBy: z.optional(user),
    lastPublishedAt: z.optional(z.nullable(z.string())),
    lastPublishedBy: z.optional(user),
    lastTriggeredAt: z.optional(z.nullable(z.string())),
  })
  .register(z.globalRegistry, { id: 'Workflow' });
export type WorkflowResponse = z.infer<typeof workflowResponseSchema>;

export const workflowListSchema = z.object({
  workflows: z.array(
    z.extend(
      z.pick(workflowResponseSchema, {
        _id: true,
        workflowId: true,
        slug: true,
        name: true,
        description: true,
        tags: true,
        active: true,
        severity: true,
        origin: true,
        status: true,
        createdAt: true,
        updatedAt: true,
        lastTriggeredAt: true,
      }),
      {
        stepTypeOverviews: z.array(z.enum(STEP_TYPES)),
        steps: z.array(z.pick(stepResponseSchema, { slug: true, type: true, issues: true })),
      },
    ),
  ),
  totalCount: z.number(),
});
export type WorkflowList = z.infer<typeof workflowListSchema>;
