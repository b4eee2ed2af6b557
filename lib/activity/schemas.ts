import * as z from '../zod.ts';
import { stepFilterSchema, type StepFilter } from '../integrations/schemas.ts';
import { STEP_TYPES } from '../workflows/model.ts';
import { PROVIDERS } from '../integrations/catalogue.ts';

// Shapes of the activity feed (GET /v1/notifications) and of one of its items (the API's
// ActivityNotification). The response schemas document what the view builds.

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

/** Values a list parameter may carry; its values end up in key conditions and filter expressions. */
const MAX_LIST_VALUES = 100;
/** Well under DynamoDB's 2 KB partition key, whatever the characters (values become key parts). */
const MAX_VALUE_BYTES = 1024;

const bounded = (maxLength: number) =>
  z.string().check(
    z.maxLength(maxLength),
    z.refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_VALUE_BYTES, `must be at most ${MAX_VALUE_BYTES} bytes of UTF-8`),
  );

/**
 * A parameter given once or repeated. API Gateway joins repeated query values with commas, so a
 * value is split on them; empty entries are dropped (so `contextKeys=` is the empty list).
 */
const list = <T extends z.ZodMiniType<string, string>>(item: T) =>
  z.pipe(
    z.pipe(
      z.union([z.string(), z.array(z.string())]),
      z.transform((value) =>
        (Array.isArray(value) ? value : [value])
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter((v) => v.length > 0),
      ),
    ),
    z.array(item).check(z.maxLength(MAX_LIST_VALUES, `must have at most ${MAX_LIST_VALUES} values`)),
  );

export const listNotificationsQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 10),
  channels: z.optional(list(bounded(64))),
  /** Workflow database ids. */
  templates: z.optional(list(bounded(256))),
  emails: z.optional(list(bounded(254))),
  subscriberIds: z.optional(list(bounded(256))),
  severity: z.optional(list(z.enum(SEVERITIES, { error: `severity must be one of ${SEVERITIES.join(', ')}` }))),
  transactionId: z.optional(list(bounded(256))),
  topicKey: z.optional(bounded(256)),
  /** Absent: no filter; empty: only notifications without context; else the exact set. */
  contextKeys: z.optional(list(bounded(512))),
  /** Deprecated: an exact subscriberId or email, OR-ed with the other subscriber filters. */
  search: z.optional(bounded(256)),
  /** Any date string; checked by the feed (400 when unparseable, as the reference answers). */
  after: z.optional(z.string().check(z.maxLength(256))),
  before: z.optional(z.string().check(z.maxLength(256))),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

/** Only bounded: an id that cannot exist is simply not found. */
export const notificationParams = z.object({ notificationId: z.string().check(z.minLength(1), z.maxLength(256)) });

// ---- responses -------------------------------------------------------------------------------

const JOB_TYPES = [...STEP_TYPES, 'trigger'] as const;
/** JobProvider of the interface: every provider of the catalogue (`svc` is the service itself). */
const jobProvider = z.enum(PROVIDERS.map((p) => p.id)).register(z.globalRegistry, { id: 'JobProvider' });
const record = z.record(z.string(), z.unknown());

export const executionDetailSchema = z
  .object({
    _id: z.string(),
    createdAt: z.optional(z.string()),
    status: z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']),
    detail: z.string(),
    isRetry: z.boolean(),
    isTest: z.boolean(),
    providerId: z.optional(jobProvider),
    raw: z.optional(z.nullable(z.string())),
    source: z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']),
  })
  .register(z.globalRegistry, { id: 'ExecutionDetail' });

const timeUnit = z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']);

export const digestMetadataSchema = z
  .object({
    type: z.enum(['regular', 'backoff', 'timed']),
    digestKey: z.optional(z.string()),
    amount: z.optional(z.number()),
    unit: z.optional(timeUnit),
    events: z.optional(z.array(record)),
    backoff: z.optional(z.boolean()),
    backoffAmount: z.optional(z.number()),
    backoffUnit: z.optional(timeUnit),
    updateMode: z.optional(z.boolean()),
    timed: z.optional(
      z.object({
        atTime: z.optional(z.string()),
        weekDays: z.optional(z.array(z.string())),
        monthDays: z.optional(z.array(z.number())),
        ordinal: z.optional(z.string()),
        ordinalValue: z.optional(z.string()),
        monthlyType: z.optional(z.string()),
        cronExpression: z.optional(z.string()),
        untilDate: z.optional(z.string()),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'DigestMetadata' });

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

export const activityStepSchema: z.ZodMiniType<ActivityStep> = z
  .object({
    _id: z.string(),
    active: z.boolean(),
    filters: z.array(stepFilterSchema),
    _templateId: z.string(),
    name: z.optional(z.string()),
    _parentId: z.optional(z.nullable(z.string())),
    metadata: z.optional(record),
    replyCallback: z.optional(record),
    controlVariables: z.optional(record),
    issues: z.optional(record),
    template: z.optional(record),
    get variants() {
      return z.optional(z.array(activityStepSchema));
    },
  })
  .register(z.globalRegistry, { id: 'ActivityStep' });

export const activityMessageSchema = z
  .object({
    _id: z.string(),
    channel: z.string(),
    status: z.string(),
    seen: z.boolean(),
    read: z.boolean(),
    deliveryStatus: z.optional(z.string()),
    deliveryStatusAt: z.optional(z.string()),
    opened: z.optional(z.string()),
    clicked: z.optional(z.string()),
    clickCount: z.optional(z.number()),
  })
  .register(z.globalRegistry, { id: 'ActivityMessage' });
export type ActivityMessage = z.infer<typeof activityMessageSchema>;

export const activityJobSchema = z
  .object({
    _id: z.string(),
    type: z.enum(JOB_TYPES),
    digest: z.optional(digestMetadataSchema),
    executionDetails: z.array(executionDetailSchema),
    step: activityStepSchema,
    overrides: z.optional(record),
    payload: z.optional(record),
    /** Steps no provider has a part in (digest, delay, throttle, custom) name the service, `svc`. */
    providerId: jobProvider,
    status: z.string(),
    updatedAt: z.optional(z.string()),
    scheduleExtensionsCount: z.optional(z.number()),
    /** The tenant the trigger named, as the job's templates saw it (the reference's `tenant` of a job). */
    tenant: z.optional(z.object({ identifier: z.string(), name: z.optional(z.string()), data: z.optional(record) })),
    /**
     * Ours (docs/engagement.md): the message the step sent, with its engagement as it is now:
     * delivery receipts, in-app seen/read, tracked opens and clicks (absent until they happen).
     */
    message: z.optional(activityMessageSchema),
  })
  .register(z.globalRegistry, { id: 'ActivityJob' });

const text = z.optional(z.nullable(z.string()));

export const activityNotificationSchema = z
  .object({
    _id: z.optional(z.string()),
    _environmentId: z.string(),
    _organizationId: z.string(),
    _subscriberId: z.string(),
    _templateId: z.optional(z.string()),
    _digestedNotificationId: z.optional(z.string()),
    transactionId: z.string(),
    topics: z.optional(z.array(z.object({ _topicId: z.string(), topicKey: z.string() }))),
    channels: z.optional(z.array(z.enum(JOB_TYPES))),
    createdAt: z.optional(z.string()),
    updatedAt: z.optional(z.string()),
    tags: z.optional(z.array(z.string())),
    controls: z.optional(record),
    payload: z.optional(record),
    to: z.optional(z.unknown()),
    /** The subscriber as it is now; absent once deleted. */
    subscriber: z.optional(
      z.object({ _id: z.string(), subscriberId: z.string(), email: text, firstName: text, lastName: text, phone: text }),
    ),
    /** The workflow as it is now; absent once deleted. */
    template: z.optional(
      z.object({
        _id: z.optional(z.string()),
        name: z.string(),
        origin: z.optional(z.enum(['svc-cloud', 'svc-cloud-v1', 'external'])),
        triggers: z.array(
          z.object({
            type: z.literal('event'),
            identifier: z.string(),
            variables: z.array(z.object({ name: z.string() })),
            subscriberVariables: z.optional(z.array(z.object({ name: z.string() }))),
          }),
        ),
      }),
    ),
    jobs: z.optional(z.array(activityJobSchema)),
    severity: z.optional(z.enum(SEVERITIES)),
    critical: z.optional(z.boolean()),
    contextKeys: z.optional(z.array(z.string())),
  })
  .register(z.globalRegistry, { id: 'ActivityNotification' });
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
  .register(z.globalRegistry, { id: 'ActivityList' });
export type ActivityList = z.infer<typeof activityListSchema>;
