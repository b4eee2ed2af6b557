import * as z from '../zod.ts';
import { BOOLEAN_CREDENTIAL_KEYS, CHANNELS, STRING_CREDENTIAL_KEYS } from './catalogue.ts';

// Shapes of the integration resource and of the bodies that create and change one.
// Unknown body fields are ignored (zod strips them), as the reference does.

export const channelSchema = z.enum(CHANNELS);

const credentialShape: Record<string, z.ZodMiniType> = {};
for (const key of STRING_CREDENTIAL_KEYS) credentialShape[key] = z.optional(z.string());
for (const key of BOOLEAN_CREDENTIAL_KEYS) credentialShape[key] = z.optional(z.boolean());
credentialShape.tlsOptions = z.optional(z.record(z.string(), z.unknown()));

export const credentialsSchema = z.object(credentialShape).register(z.globalRegistry, { id: 'Credentials' });
export type Credentials = Record<string, unknown>;

export const configurationsSchema = z
  .object({
    inboundWebhookEnabled: z.optional(z.boolean()),
    inboundWebhookSigningKey: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'Configurations' });
export type Configurations = z.infer<typeof configurationsSchema>;

export const FILTER_OPERATORS = [
  'LARGER',
  'SMALLER',
  'LARGER_EQUAL',
  'SMALLER_EQUAL',
  'EQUAL',
  'NOT_EQUAL',
  'ALL_IN',
  'ANY_IN',
  'NOT_IN',
  'BETWEEN',
  'NOT_BETWEEN',
  'LIKE',
  'NOT_LIKE',
  'IN',
] as const;

export const fieldFilterPartSchema = z.object({
  field: z.string(),
  value: z.string(),
  operator: z.enum(FILTER_OPERATORS),
  // `tenant`: integration conditions test the trigger's tenant, as in the reference; the API's
  // schema lists only subscriber and payload, which step conditions use (docs/differences.md).
  on: z.enum(['subscriber', 'payload', 'tenant']),
});

/**
 * What a subscriber did with the message of an earlier step (`step`: its stepId or database id),
 * the reference's `previousStep` filter part; `opened`/`clicked` and their negations are ours
 * (docs/engagement.md, "Steps that depend on engagement").
 */
export const PREVIOUS_STEP_TYPES = ['read', 'unread', 'seen', 'unseen', 'opened', 'unopened', 'clicked', 'unclicked'] as const;
export const previousStepFilterPartSchema = z.object({
  on: z.literal('previousStep'),
  step: z.string().check(z.minLength(1), z.maxLength(256)),
  stepType: z.enum(PREVIOUS_STEP_TYPES),
});

/** A filter's child: a field of the subscriber, payload or tenant, or an earlier step's engagement. */
export const filterPartSchema = z.discriminatedUnion('on', [fieldFilterPartSchema, previousStepFilterPartSchema]);

export const stepFilterSchema = z
  .object({
    isNegated: z.boolean(),
    type: z.optional(z.enum(['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'])),
    value: z.optional(z.enum(['AND', 'OR'])),
    children: z.array(filterPartSchema),
  })
  .register(z.globalRegistry, { id: 'StepFilter' });
export type StepFilter = z.infer<typeof stepFilterSchema>;

const name = z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(256));
const identifier = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'identifier must not be empty'),
    z.maxLength(256),
    z.regex(/^[^\s#]+$/, 'identifier must not contain spaces or #'),
  );
const environmentId = z.string().check(z.minLength(1));

/** Only bounded, so an id that cannot exist is simply not found, and never longer than a DynamoDB key may be. */
export const integrationIdParams = z.object({ integrationId: z.string().check(z.minLength(1), z.maxLength(256)) });

export const createIntegrationBody = z.object({
  providerId: z.string().check(z.minLength(1)),
  channel: channelSchema,
  name: z.optional(name),
  identifier: z.optional(identifier),
  _environmentId: z.optional(environmentId),
  active: z.optional(z.boolean()),
  credentials: z.optional(credentialsSchema),
  check: z.optional(z.boolean()),
  conditions: z.optional(z.array(stepFilterSchema)),
  configurations: z.optional(configurationsSchema),
});
export type CreateIntegrationInput = z.infer<typeof createIntegrationBody>;

/** The same fields as create, none required; provider and channel are fixed once created. */
export const updateIntegrationBody = z.omit(createIntegrationBody, { providerId: true, channel: true });
export type UpdateIntegrationInput = z.infer<typeof updateIntegrationBody>;

export const integrationSchema = z
  .object({
    _id: z.string(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    name: z.string(),
    identifier: z.string(),
    providerId: z.string(),
    channel: channelSchema,
    credentials: credentialsSchema,
    configurations: z.optional(configurationsSchema),
    active: z.boolean(),
    deleted: z.boolean(),
    deletedAt: z.optional(z.string()),
    deletedBy: z.optional(z.string()),
    primary: z.boolean(),
    priority: z.number(),
    conditions: z.optional(z.array(stepFilterSchema)),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Integration' });
export type Integration = z.infer<typeof integrationSchema>;
