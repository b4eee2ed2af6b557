import { filterPartSchema } from '../integrations/schemas.ts';
import * as z from '../zod.ts';
import { TIME_UNITS } from './controls.ts';
import { tagsSchema } from './schemas.ts';

// Bodies, queries and responses of the v1 workflow API (`/v1/notification-templates`, what
// `@novu/node` 2.x calls notification templates), after the reference's v1 DTOs. Fields the
// reference accepts but nothing here could honour (step variants, filters on webhooks or online
// state) are refused with a 422 rather than stored and ignored. Unknown fields are ignored.

/** Step kinds a v1 workflow can hold: the channels, digest and delay. */
export const V1_STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay'] as const;
export type V1StepType = (typeof V1_STEP_TYPES)[number];

const text = (max: number) => z.string().check(z.maxLength(max));
const url = z.string().check(z.maxLength(2048));
const target = z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop']);

/** v1 filters may leave out `isNegated`; the stored StepFilter always has it. */
const stepFilter = z.object({
  isNegated: z._default(z.boolean(), false),
  type: z.optional(z.enum(['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'])),
  value: z.optional(z.enum(['AND', 'OR'])),
  children: z.array(filterPartSchema).check(z.maxLength(50)),
});

const emailBlock = z.object({
  type: z.enum(['text', 'button']),
  content: text(100_000),
  url: z.optional(url),
  styles: z.optional(z.object({ textAlign: z.optional(z.enum(['center', 'left', 'right'])) })),
});

const button = z.object({
  type: z.enum(['primary', 'secondary']),
  content: text(1024),
  resultContent: z.optional(text(1024)),
  url: z.optional(url),
  target: z.optional(target),
});

const cta = z.object({
  type: z.optional(z.literal('redirect')),
  data: z.optional(z.object({ url: z.optional(url), target: z.optional(target) })),
  action: z.optional(
    z.object({
      buttons: z.optional(
        z.array(button).check(
          z.maxLength(2),
          z.refine((list) => new Set(list.map((b) => b.type)).size === list.length, 'at most one primary and one secondary button'),
        ),
      ),
    }),
  ),
});

const template = z.object({
  type: z.enum(V1_STEP_TYPES, { error: `type must be one of ${V1_STEP_TYPES.join(', ')}` }),
  /** Text, HTML, or (email) the blocks of the reference's visual editor. */
  content: z.optional(z.union([text(200_000), z.array(emailBlock).check(z.maxLength(200))])),
  contentType: z.optional(z.enum(['editor', 'customHtml'])),
  name: z.optional(text(256)),
  subject: z.optional(text(2048)),
  title: z.optional(text(2048)),
  preheader: z.optional(text(2048)),
  senderName: z.optional(text(256)),
  cta: z.optional(cta),
  actor: z.optional(z.object({ type: z.enum(['none', 'user', 'system_icon', 'system_custom']), data: z.optional(z.nullable(text(2048))) })),
  layoutId: z.optional(z.nullable(text(256))),
  feedId: z.optional(z.nullable(text(256))),
  variables: z.optional(z.array(z.record(z.string(), z.unknown())).check(z.maxLength(200))),
});
export type V1TemplateInput = z.infer<typeof template>;

const timeUnit = z.enum(TIME_UNITS);
const metadata = z.object({
  type: z.optional(z.enum(['regular', 'backoff', 'timed', 'scheduled'])),
  amount: z.optional(z.number()),
  unit: z.optional(timeUnit),
  digestKey: z.optional(text(256)),
  backoff: z.optional(z.boolean()),
  backoffAmount: z.optional(z.number()),
  backoffUnit: z.optional(timeUnit),
  updateMode: z.optional(z.boolean()),
  timed: z.optional(
    z.object({
      atTime: z.optional(text(16)),
      weekDays: z.optional(
        z.array(z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])).check(z.maxLength(7)),
      ),
      monthDays: z.optional(z.array(z.number().check(z.int(), z.gte(1), z.lte(31))).check(z.maxLength(31))),
      ordinal: z.optional(z.enum(['1', '2', '3', '4', '5', 'last'])),
      ordinalValue: z.optional(
        z.enum(['day', 'weekday', 'weekend', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']),
      ),
      monthlyType: z.optional(z.enum(['each', 'on'])),
    }),
  ),
  delayPath: z.optional(text(256)),
});
export type V1MetadataInput = z.infer<typeof metadata>;

const id = z.string().check(z.maxLength(256));
const step = z.object({
  _id: z.optional(id),
  _templateId: z.optional(id),
  uuid: z.optional(id),
  stepId: z.optional(
    z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[a-zA-Z0-9_-]+$/, 'stepId may hold letters, digits, - and _ only')),
  ),
  name: z.optional(text(256)),
  active: z.optional(z.boolean()),
  shouldStopOnFail: z.optional(z.boolean()),
  template: z.object(template.shape, { error: 'template is required' }),
  filters: z.optional(z.array(stepFilter).check(z.maxLength(20))),
  metadata: z.optional(metadata),
  replyCallback: z.optional(z.object({ active: z.optional(z.boolean()), url: z.optional(url) })),
  variants: z.optional(z.array(z.unknown()).check(z.maxLength(0, 'step variants are not supported'))),
  _parentId: z.optional(z.nullable(id)),
});
export type V1StepInput = z.infer<typeof step>;

const preferenceSettings = z.object({
  email: z.optional(z.boolean()),
  sms: z.optional(z.boolean()),
  in_app: z.optional(z.boolean()),
  chat: z.optional(z.boolean()),
  push: z.optional(z.boolean()),
});
export type V1PreferenceSettings = z.infer<typeof preferenceSettings>;

const name = z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(256));
const groupId = z.string({ error: 'Notification group must be provided' }).check(z.minLength(1), z.maxLength(256));
const steps = z.array(step).check(z.maxLength(50));

export const createV1WorkflowBody = z.object({
  name,
  notificationGroupId: groupId,
  tags: z.optional(tagsSchema),
  description: z.optional(text(1000)),
  steps,
  active: z.optional(z.boolean()),
  draft: z.optional(z.boolean()),
  critical: z.optional(z.boolean()),
  preferenceSettings: z.optional(preferenceSettings),
  data: z.optional(z.record(z.string(), z.unknown())),
});
export type CreateV1WorkflowInput = z.infer<typeof createV1WorkflowBody>;

/** Every field optional; those sent replace the stored ones, `steps` replaces every step. */
export const updateV1WorkflowBody = z.object({
  name: z.optional(name),
  tags: z.optional(tagsSchema),
  description: z.optional(text(300)),
  identifier: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1),
        z.maxLength(256),
        z.regex(/^[a-zA-Z0-9_:.-]+$/, 'identifier may hold letters, digits, _ : . - only'),
      ),
  ),
  steps: z.optional(steps),
  notificationGroupId: z.optional(groupId),
  critical: z.optional(z.boolean()),
  preferenceSettings: z.optional(preferenceSettings),
  data: z.optional(z.record(z.string(), z.unknown())),
});
export type UpdateV1WorkflowInput = z.infer<typeof updateV1WorkflowBody>;

export const v1WorkflowStatusBody = z.object({ active: z.boolean() });

/** A database id (a trigger identifier too, for GET). Only bounded: what cannot exist is not found. */
export const v1WorkflowParams = z.object({ templateId: z.string().check(z.minLength(1), z.maxLength(512)) });

export const listV1WorkflowsQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  /** Part of a name or trigger identifier, any case. */
  query: z.optional(z.string().check(z.maxLength(256))),
});
export type ListV1WorkflowsQuery = z.infer<typeof listV1WorkflowsQuery>;

export const notificationGroupParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(256)) });

// ---- responses (documentation; the v1 view builds them) ---------------------------------------

const notificationGroup = z
  .object({ _id: z.string(), name: z.string(), _environmentId: z.string(), _organizationId: z.string() })
  .register(z.globalRegistry, { id: 'NotificationGroup' });

const v1Workflow = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    active: z.boolean(),
    draft: z.boolean(),
    preferenceSettings: z.record(z.string(), z.boolean()),
    critical: z.boolean(),
    tags: z.array(z.string()),
    steps: z.array(z.record(z.string(), z.unknown())),
    _organizationId: z.string(),
    _creatorId: z.string(),
    _environmentId: z.string(),
    triggers: z.array(
      z.object({
        type: z.literal('event'),
        identifier: z.string(),
        variables: z.array(z.object({ name: z.string() })),
        subscriberVariables: z.array(z.object({ name: z.string() })),
      }),
    ),
    _notificationGroupId: z.string(),
    notificationGroup: z.optional(notificationGroup),
    deleted: z.boolean(),
    deletedAt: z.nullable(z.string()),
    deletedBy: z.nullable(z.string()),
    data: z.optional(z.record(z.string(), z.unknown())),
    origin: z.enum(['svc-cloud', 'svc-cloud-v1', 'external']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'NotificationTemplate' });

// Unwrapped, as every route's `response`: the route's envelope wraps them (a page goes as it is).
export const v1WorkflowResponse = v1Workflow;
export const v1WorkflowPageResponse = z.object({
  page: z.number(),
  pageSize: z.number(),
  totalCount: z.number(),
  data: z.array(v1Workflow),
});
export const v1WorkflowDeletedResponse = z.literal(true);
export const notificationGroupResponse = notificationGroup;
export const notificationGroupListResponse = z.array(notificationGroup);
