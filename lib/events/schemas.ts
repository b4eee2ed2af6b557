import * as z from '../zod.ts';
import { bridgeUrl } from '../bridge/url.ts';
import { contextDataSchema, contextIdSchema } from '../contexts/fields.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { subscriberDefinitionBody } from '../subscribers/schemas.ts';

// Shapes of trigger requests and their answers. One event's schema serves both the single
// trigger (validated at the route: 422) and each item of a bulk trigger (validated per item: that
// event alone gets status `error`). Recipients are not refused here: `to` only has to be present,
// and recipients.ts drops the items that are not valid, as the reference does.

export const MAX_BULK_EVENTS = 100;
const MAX_CONTEXT_KEYS = 5;
const MAX_TOPIC_EXCLUDES = 100;
/** transactionIds are part of keys, so they are bounded (the reference sets no limit). */
const MAX_TRANSACTION_ID_LENGTH = 256;

/** Messages in the reference's words: "x should not be null or undefined", "x must be a string". */
const requiredString = (field: string) =>
  z.string({ error: (issue) => (issue.input == null ? `${field} should not be null or undefined` : `${field} must be a string`) });
const object = (field: string) => z.record(z.string(), z.unknown(), { error: `${field} must be an object` });

/** A subscriber as a trigger may define it (created or updated by the pipeline). */
export const subscriberDefinitionSchema = subscriberDefinitionBody;

export const topicRecipientSchema = z.object({
  type: z.literal('Topic'),
  topicKey: externalIdSchema('topicKey'),
  exclude: z.optional(
    z
      .array(z.string().check(z.maxLength(MAX_EXTERNAL_ID_LENGTH)))
      .check(z.maxLength(MAX_TOPIC_EXCLUDES, `exclude must contain no more than ${MAX_TOPIC_EXCLUDES} elements`)),
  ),
});

const contextId = contextIdSchema;
const contextData = contextDataSchema('context data');

/** Optional fields sent as null are absent, as with the reference's validators. */
const absentIfNull = <T extends z.ZodMiniType>(schema: T) => z.preprocess((value) => value ?? undefined, z.optional(schema));

/** A string stands for the object it names: `'acme'` for `{identifier: 'acme'}` and the like. */
const idOr = <T extends z.ZodMiniType>(field: string, schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? { [field]: value } : value), schema);

/**
 * `{type: id}` or `{type: {id, data}}`, at most 5 types. Types follow the id rule too, so that
 * the `type:id` keys split back unambiguously.
 */
export const contextSchema = z
  .record(
    z.string(),
    idOr(
      'id',
      z.object({ id: contextId('context id'), data: z.optional(contextData) }, { error: 'context values must be an id or {id, data}' }),
    ),
    {
      error: 'context must be an object',
    },
  )
  .check(
    z.superRefine((context, ctx) => {
      const types = Object.keys(context);
      if (types.length === 0) ctx.addIssue({ code: 'custom', message: 'context must not be empty' });
      if (types.length > MAX_CONTEXT_KEYS) ctx.addIssue({ code: 'custom', message: `context must have at most ${MAX_CONTEXT_KEYS} keys` });
      for (const type of types) {
        const problem = contextId('context type').safeParse(type).error?.issues[0]?.message;
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [type] });
      }
    }),
  )
  .register(z.globalRegistry, { description: `Up to ${MAX_CONTEXT_KEYS} context types, each an id or {id, data}` });

/** Only bounded: an identifier no tenant can have is simply not found. An empty string names none. */
const tenantSchema = z
  .preprocess(
    (value) => (value === '' || value === null ? undefined : typeof value === 'string' ? { identifier: value } : value),
    z.optional(
      z.object(
        {
          identifier: requiredString('tenant.identifier').check(z.maxLength(1024)),
          name: z.optional(z.string().check(z.maxLength(1024))),
          data: z.optional(object('tenant.data')),
        },
        { error: 'tenant must be a string or an object with an identifier' },
      ),
    ),
  )
  .register(z.globalRegistry, { description: 'A tenant identifier, or {identifier, name?, data?}; the tenant must exist' });

const actorSchema = idOr('subscriberId', subscriberDefinitionSchema).register(z.globalRegistry, {
  description: 'A subscriberId or a subscriber object',
});

const RECIPIENTS_DOC =
  'One recipient or an array of them: a subscriberId, a subscriber object ({subscriberId, firstName, ..., channels}) or a topic ' +
  '({type: "Topic", topicKey, exclude?}). Invalid recipients are dropped; none valid gives status invalid_recipients.';

/** What every trigger shares; `to` is added for the targeted ones. */
const commonFields = {
  name: requiredString('name').register(z.globalRegistry, { description: 'The workflow identifier (workflowId) to trigger' }),
  payload: z._default(object('payload'), {}),
  overrides: z._default(object('overrides'), {}),
  transactionId: absentIfNull(
    z
      .string({ error: 'transactionId must be a string' })
      .check(z.maxLength(MAX_TRANSACTION_ID_LENGTH, `transactionId must be at most ${MAX_TRANSACTION_ID_LENGTH} characters`)),
  ),
  actor: absentIfNull(actorSchema),
  tenant: tenantSchema,
  context: absentIfNull(contextSchema),
  /** Code-first workflows (docs/code-first.md): this event's bridge instead of the environment's. */
  bridgeUrl: absentIfNull(bridgeUrl),
};

export const triggerEventBody = z.object(
  {
    ...commonFields,
    to: z
      .unknown()
      .check(z.refine((to) => to != null, 'to should not be null or undefined'))
      .register(z.globalRegistry, { description: RECIPIENTS_DOC }),
  },
  { error: 'event must be an object' },
);
export type TriggerEventInput = z.infer<typeof triggerEventBody>;

export const broadcastEventBody = z.object(commonFields);
export type BroadcastEventInput = z.infer<typeof broadcastEventBody>;

/** Items are checked one by one (a bad one fails alone), so the request only bounds the list. */
export const bulkTriggerBody = z.object({
  events: z
    .array(z.unknown().register(z.globalRegistry, { description: 'A trigger event, as the body of POST /v1/events/trigger' }), {
      error: 'events must be an array',
    })
    .check(
      z.minLength(1, 'events should not be empty'),
      z.maxLength(MAX_BULK_EVENTS, `events must contain no more than ${MAX_BULK_EVENTS} elements`),
    ),
});

// ---- responses -------------------------------------------------------------------------------

export const TRIGGER_STATUSES = [
  'error',
  'trigger_not_active',
  'no_workflow_active_steps_defined',
  'no_workflow_steps_defined',
  'processed',
  'no_tenant_found',
  'invalid_recipients',
] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

export const triggerEventResponseSchema = z
  .object({
    acknowledged: z.boolean(),
    status: z.enum(TRIGGER_STATUSES),
    error: z.optional(z.array(z.string())),
    transactionId: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'TriggerEventResponse' });
export type TriggerEventResponse = z.infer<typeof triggerEventResponseSchema>;

export const bulkTriggerResponseSchema = z.array(triggerEventResponseSchema);
