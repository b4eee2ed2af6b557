import * as z from 'zod';
import { stepFilterSchema, type StepFilter } from '../integrations/schemas.ts';
import { STEP_TYPES } from '../workflows/model.ts';

// Shapes of the activity feed (GET /v1/notifications) and of one of its items (interface.md
// "ActivityNotification"). The response schemas document what the view builds.

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

/** Values a list parameter may carry; its values end up in key conditions and filter expressions. */
const MAX_LIST_VALUES = 100;
/** Well under DynamoDB's 2 KB partition key, whatever the characters (values become key parts). */
const MAX_VALUE_BYTES = 1024;

const bounded = (maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_VALUE_BYTES, `must be at most ${MAX_VALUE_BYTES} bytes of UTF-8`);

/**
 * A parameter given once or repeated. API Gateway joins repeated query values with commas, so a
 * value is split on them; empty entries are dropped (so `contextKeys=` is the empty list).
 */
const list = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    )
    .pipe(z.array(item).max(MAX_LIST_VALUES, `must have at most ${MAX_LIST_VALUES} values`));

export const listNotificationsQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  channels: list(bounded(64)).optional(),
  /** Workflow database ids. */
  templates: list(bounded(256)).optional(),
  emails: list(bounded(254)).optional(),
  subscriberIds: list(bounded(256)).optional(),
  severity: list(z.enum(SEVERITIES, { error: `severity must be one of ${SEVERITIES.join(', ')}` })).optional(),
  transactionId: list(bounded(256)).optional(),
  topicKey: bounded(256).optional(),
  /** Absent: no filter; empty: only notifications without context; else the exact set. */
  contextKeys: list(bounded(512)).optional(),
  /** Deprecated: an exact subscriberId or email, OR-ed with the other subscriber filters. */
  search: bounded(256).optional(),
  /** Any date string; checked by the feed (400 when unparseable, as the reference answers). */
  after: z.string().max(256).optional(),
  before: z.string().max(256).optional(),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

/** Only bounded: an id that cannot exist is simply not found. */
export const notificationParams = z.object({ notificationId: z.string().min(1).max(256) });

// ---- responses -------------------------------------------------------------------------------

const JOB_TYPES = [...STEP_TYPES, 'trigger'] as const;
const record = z.record(z.string(), z.unknown());

export const executionDetailSchema = z
  .object({
    _id: z.string(),
    createdAt: z.string().optional(),
    status: z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']),
    detail: z.string(),
    isRetry: z.boolean(),
    isTest: z.boolean(),
    providerId: z.string().optional(),
    raw: z.string().nullable().optional(),
    source: z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']),
  })
  .meta({ id: 'ExecutionDetail' });

const timeUnit = z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']);

export const digestMetadataSchema = z
  .object({
    type: z.enum(['regular', 'backoff', 'timed']),
    digestKey: z.string().optional(),
    amount: z.number().optional(),
    unit: timeUnit.optional(),
    events: z.array(record).optional(),
    backoff: z.boolean().optional(),
    backoffAmount: z.number().optional(),
    backoffUnit: timeUnit.optional(),
    updateMode: z.boolean().optional(),
    timed: z
      .object({
        atTime: z.string().optional(),
        weekDays: z.array(z.string()).optional(),
        monthDays: z.array(z.number()).optional(),
        ordinal: z.string().optional(),
        ordinalValue: z.string().optional(),
        monthlyType: z.string().optional(),
        cronExpression: z.string().optional(),
        untilDate: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: 'DigestMetadata' });

export interface ActivityStep {
  _id: string;
  active: boolean;
  filters: StepFilter[];
  _templateId: string;
  name?: string;
  _parentId?: string | null;
  metadata?: Record<string, unknown>;
  replyCallback?: Record<string, unknown>;
  controlVariables?: Record<string, unknown>;
  issues?: Record<string, unknown>;
  template?: Record<string, unknown>;
  variants?: ActivityStep[];
}

export const activityStepSchema: z.ZodType<ActivityStep> = z
  .object({
    _id: z.string(),
    active: z.boolean(),
    filters: z.array(stepFilterSchema),
    _templateId: z.string(),
    name: z.string().optional(),
    _parentId: z.string().nullable().optional(),
    metadata: record.optional(),
    replyCallback: record.optional(),
    controlVariables: record.optional(),
    issues: record.optional(),
    template: record.optional(),
    get variants() {
      return z.array(activityStepSchema).optional();
    },
  })
  .meta({ id: 'ActivityStep' });

export const activityJobSchema = z
  .object({
    _id: z.string(),
    type: z.enum(JOB_TYPES),
    digest: digestMetadataSchema.optional(),
    executionDetails: z.array(executionDetailSchema),
    step: activityStepSchema,
    overrides: record.optional(),
    payload: record.optional(),
    /** Null for steps that deliver nothing (digest, delay, throttle, custom). */
    providerId: z.string().nullable(),
    status: z.string(),
    updatedAt: z.string().optional(),
    scheduleExtensionsCount: z.number().optional(),
  })
  .meta({ id: 'ActivityJob' });

const text = z.string().nullable().optional();

export const activityNotificationSchema = z
  .object({
    _id: z.string().optional(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    _subscriberId: z.string(),
    _templateId: z.string().optional(),
    _digestedNotificationId: z.string().optional(),
    transactionId: z.string(),
    topics: z.array(z.object({ _topicId: z.string(), topicKey: z.string() })).optional(),
    channels: z.array(z.enum(JOB_TYPES)).optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    tags: z.array(z.string()).optional(),
    controls: record.optional(),
    payload: record.optional(),
    to: z.unknown().optional(),
    /** The subscriber as it is now; absent once deleted. */
    subscriber: z
      .object({ _id: z.string(), subscriberId: z.string(), email: text, firstName: text, lastName: text, phone: text })
      .optional(),
    /** The workflow as it is now; absent once deleted. */
    template: z
      .object({
        _id: z.string().optional(),
        name: z.string(),
        origin: z.enum(['svc-cloud', 'svc-cloud-v1', 'external']).optional(),
        triggers: z.array(
          z.object({
            type: z.literal('event'),
            identifier: z.string(),
            variables: z.array(z.object({ name: z.string() })),
            subscriberVariables: z.array(z.object({ name: z.string() })).optional(),
          }),
        ),
      })
      .optional(),
    jobs: z.array(activityJobSchema).optional(),
    severity: z.enum(SEVERITIES).optional(),
    critical: z.boolean().optional(),
    contextKeys: z.array(z.string()).optional(),
  })
  .meta({ id: 'ActivityNotification' });
export type ActivityNotification = z.infer<typeof activityNotificationSchema>;
export type ActivityJob = z.infer<typeof activityJobSchema>;

export const activityListSchema = z
  .object({
    page: z.number(),
    /** True only when another matching notification exists beyond this page. */
    hasMore: z.boolean(),
    pageSize: z.number(),
    data: z.array(activityNotificationSchema),
  })
  .meta({ id: 'ActivityList' });
export type ActivityList = z.infer<typeof activityListSchema>;
