import { isCronExpression } from '../cron.ts';
import * as z from 'zod';
import type { StepType } from './model.ts';

// The control values of each step kind (interface.md's control objects). Shapes and formats are
// checked here and refused with 422; a required value left empty is not refused but reported as a
// MISSING_VALUE issue (issues.ts), as the reference lets authors save unfinished steps.

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
const timeUnit = z.enum(TIME_UNITS);

/** A JSON-logic rule; the step runs when it is true or empty. */
const skip = z.record(z.string(), z.unknown()).optional();

const VARIABLE = /^\s*\{\{.*\}\}\s*$/s;
function isUrlLike(value: string): boolean {
  if (value === '' || value.startsWith('/') || VARIABLE.test(value)) return true;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
const urlLike = (what: string) =>
  z.string().refine(isUrlLike, `${what} must be a valid URL, start with / or be a variable like {{payload.url}}`);

const cron = z
  .string()
  .min(1, { error: 'cron must not be empty', abort: true })
  .refine(isCronExpression, 'cron must be a valid cron expression');

const redirect = z.object({
  url: urlLike('redirect.url').optional(),
  target: z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop']).optional(),
});
const action = z.object({ label: z.string().optional(), redirect: redirect.optional() });

const inApp = z
  .object({
    skip,
    body: z.string().optional(),
    subject: z.string().optional(),
    avatar: urlLike('avatar').optional(),
    primaryAction: action.optional(),
    secondaryAction: action.optional(),
    redirect: redirect.optional(),
    disableOutputSanitization: z.boolean().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.body === undefined && value.subject === undefined) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is required when subject is empty' });
    }
  });

const email = z.object({
  skip,
  subject: z.string({ error: 'subject is required' }),
  body: z.string({ error: 'body is required' }),
  editorType: z.enum(['block', 'html']).optional(),
  disableOutputSanitization: z.boolean().optional(),
  layoutId: z.string().nullable().optional(),
});

const sms = z.object({ skip, body: z.string().optional() });
const chat = z.object({ skip, body: z.string().optional() });
const push = z.object({ skip, subject: z.string().optional(), body: z.string().optional() });

const delay = z.object({
  skip,
  // dynamic: the payload at dynamicKey holds an ISO date or {amount, unit} (reference 12.4).
  type: z.enum(['regular', 'timed', 'dynamic']).optional(),
  dynamicKey: z.string().optional(),
  amount: z.number().positive('amount must be positive').optional(),
  unit: timeUnit.optional(),
  cron: cron.optional(),
});

const digest = z.object({
  skip,
  type: z.enum(['regular', 'timed']).optional(),
  amount: z.number().min(1, 'amount must be at least 1').optional(),
  unit: timeUnit.optional(),
  lookBackWindow: z.object({ amount: z.number().min(1, 'amount must be at least 1'), unit: timeUnit }).optional(),
  cron: cron.optional(),
  digestKey: z.string().optional(),
});

// Throttle controls are "not shown" in interface.md; these are the reference's (notes 12.6).
const throttle = z.object({
  skip,
  type: z.enum(['fixed', 'dynamic']).optional(),
  amount: z.number().positive('amount must be positive').optional(),
  unit: z.enum(['minutes', 'hours', 'days']).optional(),
  dynamicKey: z.string().optional(),
  threshold: z.number().int().min(1, 'threshold must be at least 1').optional(),
  throttleKey: z.string().optional(),
});

/** A custom step's controls are the author's own: kept whole. */
const custom = z.object({ custom: z.record(z.string(), z.unknown()).optional() }).catchall(z.unknown());

export const CONTROL_SCHEMAS = {
  in_app: inApp,
  email,
  sms,
  chat,
  push,
  delay,
  digest,
  throttle,
  custom,
} as const satisfies Record<StepType, z.ZodType>;

export type ControlValues<T extends StepType> = z.infer<(typeof CONTROL_SCHEMAS)[T]>;

const dataSchemas = new Map<StepType, Record<string, unknown>>();

/** JSON Schema of a kind's controls (the step's `controls.dataSchema`), built once per kind. */
export function controlsDataSchema(type: StepType): Record<string, unknown> {
  let schema = dataSchemas.get(type);
  if (!schema) {
    const { $schema: _s, ...rest } = z.toJSONSchema(CONTROL_SCHEMAS[type], { io: 'input', unrepresentable: 'any' });
    schema = rest;
    dataSchemas.set(type, schema);
  }
  return schema;
}
