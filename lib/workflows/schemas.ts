import * as z from 'zod';
import { CONTROL_SCHEMAS } from './controls.ts';
import { STEP_TYPES, type StepType } from './model.ts';

// Bodies, queries and responses of the v2 workflow API. A step's control values are checked
// against its kind's schema, so a bad value is a 422 at `steps.<n>.controlValues.<field>`.

const IDENTIFIER = /^[a-zA-Z0-9_:.-]+$/;
const STEP_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A workflowId, database id or slug (all ASCII, at most ~280 characters). Only bounded, so an id
 * that cannot exist is simply not found, and never longer than a DynamoDB key may be.
 */
export const workflowIdParams = z.object({ workflowId: z.string().min(1).max(512) });

const channelPreference = z.object({ enabled: z.boolean() });
/** The author's preferences: any part left out keeps the workflow default. */
export const preferencesInput = z.object({
  all: z.object({ enabled: z.boolean().optional(), readOnly: z.boolean().optional() }).optional(),
  channels: z
    .object({
      email: channelPreference.optional(),
      sms: channelPreference.optional(),
      in_app: channelPreference.optional(),
      chat: channelPreference.optional(),
      push: channelPreference.optional(),
    })
    .optional(),
});
export type PreferencesInput = z.infer<typeof preferencesInput>;

function stepOf<T extends StepType>(type: T) {
  return z.object({
    _id: z.string().optional(),
    stepId: z.string().trim().min(1).max(128).regex(STEP_ID, 'stepId may hold letters, digits, - and _ only').optional(),
    name: z.string().trim().min(1, 'name must not be empty').max(256),
    type: z.literal(type),
    controlValues: (CONTROL_SCHEMAS[type] as z.ZodType<Record<string, unknown>>).prefault({}),
  });
}
const stepInput = z.discriminatedUnion('type', STEP_TYPES.map((type) => stepOf(type)) as [ReturnType<typeof stepOf>]);
export type StepInput = z.infer<typeof stepInput>;

const tags = z
  .array(z.string().trim().min(1).max(64))
  .max(16)
  .refine((list) => new Set(list).size === list.length, 'tags must be unique');

const commonFields = {
  name: z.string().trim().min(1, 'name must not be empty').max(256),
  description: z.string().max(1024).optional(),
  tags: tags.optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  /** Only its shape here: that it compiles is checked when it is saved (payload-schema.ts). */
  payloadSchema: z.record(z.string(), z.unknown()).nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  severity: z.enum(['high', 'medium', 'low', 'none']).optional(),
  preferences: z.object({ user: preferencesInput.nullable().optional() }).optional(),
  steps: z.array(stepInput).max(50).prefault([]),
};

export const createWorkflowBody = z.object({
  ...commonFields,
  workflowId: z.string().trim().min(1).max(256).regex(IDENTIFIER, 'workflowId may hold letters, digits, _ : . - only').optional(),
});
export type CreateWorkflowInput = z.infer<typeof createWorkflowBody>;

/** A PUT replaces the steps; other fields left out keep their value; the workflowId stays. */
export const updateWorkflowBody = z.object({ ...commonFields, steps: z.array(stepInput).max(50) });
export type UpdateWorkflowInput = z.infer<typeof updateWorkflowBody>;

export const patchWorkflowBody = z.object({
  active: z.boolean().optional(),
  name: commonFields.name.optional(),
  description: commonFields.description,
  tags: commonFields.tags,
  validatePayload: commonFields.validatePayload,
  payloadSchema: commonFields.payloadSchema,
  isTranslationEnabled: commonFields.isTranslationEnabled,
  severity: commonFields.severity,
});
export type PatchWorkflowInput = z.infer<typeof patchWorkflowBody>;

export const listWorkflowsQuery = z.object({
  query: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  orderDirection: z.enum(['ASC', 'DESC']).default('DESC'),
  orderBy: z.enum(['createdAt', 'updatedAt', 'name']).default('createdAt'),
});
export type ListWorkflowsQuery = z.infer<typeof listWorkflowsQuery>;

/** Only bounded: an environment that cannot exist is simply not found. */
export const syncWorkflowBody = z.object({ targetEnvironmentId: z.string().min(1).max(256) });

// ---- responses (documentation; the view builds them) ------------------------------------------

const user = z.object({
  _id: z.string(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  externalId: z.string().nullable().optional(),
});
const stepIssue = z.object({ issueType: z.string(), variableName: z.string().optional(), message: z.string() });
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
      dataSchema: z.record(z.string(), z.unknown()).optional(),
      uiSchema: z.record(z.string(), z.unknown()).optional(),
      values: z.record(z.string(), z.unknown()),
    }),
    controlValues: z.record(z.string(), z.unknown()).optional(),
    variables: z.record(z.string(), z.unknown()),
    issues: z
      .object({
        controls: z.record(z.string(), z.array(stepIssue)).optional(),
        integration: z.record(z.string(), z.array(stepIssue)).optional(),
      })
      .optional(),
  })
  .meta({ id: 'WorkflowStep' });

export const workflowResponseSchema = z
  .object({
    _id: z.string(),
    workflowId: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().optional(),
    tags: z.array(z.string()),
    active: z.boolean(),
    validatePayload: z.boolean(),
    payloadSchema: z.record(z.string(), z.unknown()).nullable(),
    payloadExample: z.record(z.string(), z.unknown()).nullable(),
    isTranslationEnabled: z.boolean(),
    severity: z.enum(['high', 'medium', 'low', 'none']),
    critical: z.boolean(),
    origin: z.enum(['svc-cloud', 'svc-cloud-v1', 'external']),
    status: z.enum(['ACTIVE', 'INACTIVE', 'ERROR']),
    preferences: z.object({ user: preferencesDoc.nullable(), default: preferencesDoc }),
    steps: z.array(stepResponseSchema),
    createdAt: z.string(),
    updatedAt: z.string(),
    updatedBy: user.optional(),
    lastPublishedAt: z.string().nullable().optional(),
    lastPublishedBy: user.optional(),
    lastTriggeredAt: z.string().nullable().optional(),
  })
  .meta({ id: 'Workflow' });
export type WorkflowResponse = z.infer<typeof workflowResponseSchema>;

export const workflowListSchema = z.object({
  workflows: z.array(
    workflowResponseSchema
      .pick({
        _id: true, workflowId: true, slug: true, name: true, description: true, tags: true, active: true,
        severity: true, origin: true, status: true, createdAt: true, updatedAt: true, lastTriggeredAt: true,
      })
      .extend({ stepTypeOverviews: z.array(z.enum(STEP_TYPES)) }),
  ),
  totalCount: z.number(),
});
export type WorkflowList = z.infer<typeof workflowListSchema>;
