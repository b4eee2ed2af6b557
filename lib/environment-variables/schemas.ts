import * as z from '../zod.ts';

// The reference's environment variables (`/v1/environment-variables`): the organization's, named
// by key, with a value per environment, read in templates as `{{env.KEY}}`. A secret's value is
// never shown (`SECRET_MASK` in its place); every value is encrypted at rest.

/** What a secret's value reads as, in every answer; a write of it is refused. */
export const SECRET_MASK = '••••••••';

export const VARIABLE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
const variableKey = z
  .string({ error: 'key is required' })
  .check(z.maxLength(256), z.regex(VARIABLE_KEY_PATTERN, 'Key must start with a letter and contain only letters, digits, and underscores'));

const variableType = z.enum(['string'], { error: 'type must be string' });

const values = z
  .array(
    z.object({
      _environmentId: z.string({ error: '_environmentId is required' }).check(z.minLength(1), z.maxLength(64)),
      value: z.string({ error: 'value is required' }).check(z.maxLength(256)),
    }),
  )
  .check(
    z.maxLength(50),
    z.refine((list) => new Set(list.map((v) => v._environmentId)).size === list.length, 'Duplicate _environmentId in values'),
  );
export type VariableValuesInput = z.infer<typeof values>;

export const createVariableBody = z.object({
  key: variableKey,
  type: z.optional(variableType),
  isSecret: z.optional(z.boolean()),
  values: z.optional(values),
});
export type CreateVariableInput = z.infer<typeof createVariableBody>;

export const updateVariableBody = z.object({
  key: z.optional(variableKey),
  type: z.optional(variableType),
  isSecret: z.optional(z.boolean()),
  values: z.optional(values),
});
export type UpdateVariableInput = z.infer<typeof updateVariableBody>;

export const variableParams = z.object({ variableKey: z.string().check(z.minLength(1), z.maxLength(256)) });

export const listVariablesQuery = z.object({ search: z.optional(z.string().check(z.maxLength(256))) });

export const variableSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    key: z.string(),
    type: variableType,
    isSecret: z.boolean(),
    /** The caller's environment's value only (masked for a secret). */
    values: z.array(z.object({ _environmentId: z.string(), value: z.string() })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'EnvironmentVariable' });
export type VariableView = z.infer<typeof variableSchema>;

export const variableListSchema = z.array(variableSchema);

export const variableUsageSchema = z
  .object({ workflows: z.array(z.object({ name: z.string(), workflowId: z.string() })) })
  .register(z.globalRegistry, { id: 'EnvironmentVariableUsage' });
