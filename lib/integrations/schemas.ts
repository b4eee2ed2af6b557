import * as z from 'zod';
import { BOOLEAN_CREDENTIAL_KEYS, CHANNELS, STRING_CREDENTIAL_KEYS } from './providers.ts';

// Shapes of the integration resource and of the bodies that create and change one.
// Unknown body fields are ignored (zod strips them), as the reference does.

export const channelSchema = z.enum(CHANNELS);

const credentialShape: Record<string, z.ZodType> = {};
for (const key of STRING_CREDENTIAL_KEYS) credentialShape[key] = z.string().optional();
for (const key of BOOLEAN_CREDENTIAL_KEYS) credentialShape[key] = z.boolean().optional();
credentialShape.tlsOptions = z.record(z.string(), z.unknown()).optional();

export const credentialsSchema = z.object(credentialShape).meta({ id: 'Credentials' });
export type Credentials = Record<string, unknown>;

export const configurationsSchema = z
  .object({
    inboundWebhookEnabled: z.boolean().optional(),
    inboundWebhookSigningKey: z.string().optional(),
  })
  .meta({ id: 'Configurations' });
export type Configurations = z.infer<typeof configurationsSchema>;

export const FILTER_OPERATORS = [
  'LARGER', 'SMALLER', 'LARGER_EQUAL', 'SMALLER_EQUAL', 'EQUAL', 'NOT_EQUAL', 'ALL_IN', 'ANY_IN',
  'NOT_IN', 'BETWEEN', 'NOT_BETWEEN', 'LIKE', 'NOT_LIKE', 'IN',
] as const;

export const fieldFilterPartSchema = z.object({
  field: z.string(),
  value: z.string(),
  operator: z.enum(FILTER_OPERATORS),
  // `tenant`: integration conditions test the trigger's tenant (reference 10.5); the interface
  // lists only subscriber and payload, which step conditions use.
  on: z.enum(['subscriber', 'payload', 'tenant']),
});

export const stepFilterSchema = z
  .object({
    isNegated: z.boolean(),
    type: z.enum(['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP']).optional(),
    value: z.enum(['AND', 'OR']).optional(),
    children: z.array(fieldFilterPartSchema),
  })
  .meta({ id: 'StepFilter' });
export type StepFilter = z.infer<typeof stepFilterSchema>;

const name = z.string().trim().min(1, 'name must not be empty').max(256);
const identifier = z
  .string()
  .trim()
  .min(1, 'identifier must not be empty')
  .max(256)
  .regex(/^[^\s#]+$/, 'identifier must not contain spaces or #');
const environmentId = z.string().min(1);

/** Only bounded, so an id that cannot exist is simply not found, and never longer than a DynamoDB key may be. */
export const integrationIdParams = z.object({ integrationId: z.string().min(1).max(256) });

export const createIntegrationBody = z.object({
  providerId: z.string().min(1),
  channel: channelSchema,
  name: name.optional(),
  identifier: identifier.optional(),
  _environmentId: environmentId.optional(),
  active: z.boolean().optional(),
  credentials: credentialsSchema.optional(),
  check: z.boolean().optional(),
  conditions: z.array(stepFilterSchema).optional(),
  configurations: configurationsSchema.optional(),
});
export type CreateIntegrationInput = z.infer<typeof createIntegrationBody>;

/** The same fields as create, none required; provider and channel are fixed once created. */
export const updateIntegrationBody = createIntegrationBody.omit({ providerId: true, channel: true });
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
    configurations: configurationsSchema.optional(),
    active: z.boolean(),
    deleted: z.boolean(),
    deletedAt: z.string().optional(),
    deletedBy: z.string().optional(),
    primary: z.boolean(),
    priority: z.number(),
    conditions: z.array(stepFilterSchema).optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof integrationSchema>;
