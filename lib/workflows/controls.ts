import { isCronExpression } from '../cron.ts';
import { blockDocumentOf } from '../email/block/document.ts';
import * as z from '../zod.ts';
import { ENGAGEMENT_EVENTS } from './engagement-events.ts';
import type { StepType } from './model.ts';

// The control values of each step kind (the API's control objects). Shapes and formats are
// checked here and refused with 422; a required value left empty is not refused but reported as a
// MISSING_VALUE issue (issues.ts), as the reference lets authors save unfinished steps.

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
const timeUnit = z.enum(TIME_UNITS);

/** A JSON-logic rule; the step runs when it is true or empty. */
const skip = z.optional(z.record(z.string(), z.unknown()));

/** A delay or digest whose wait ends outside the subscriber's schedule waits for its next window. */
const extendToSchedule = z.optional(z.boolean());

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
  z.string().check(z.refine(isUrlLike, `${what} must be a valid URL, start with / or be a variable like {{payload.url}}`));

const cron = z
  .string()
  .check(
    z.minLength(1, { error: 'cron must not be empty', abort: true }),
    z.refine(isCronExpression, 'cron must be a valid cron expression'),
  );

const redirect = z.object({
  url: z.optional(urlLike('redirect.url')),
  target: z.optional(z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop'])),
});
const action = z.object({ label: z.optional(z.string()), redirect: z.optional(redirect) });

const inApp = z
  .object({
    skip,
    body: z.optional(z.string()),
    subject: z.optional(z.string()),
    avatar: z.optional(urlLike('avatar')),
    primaryAction: z.optional(action),
    secondaryAction: z.optional(action),
    redirect: z.optional(redirect),
    disableOutputSanitization: z.optional(z.boolean()),
    data: z.optional(z.record(z.string(), z.unknown())),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.body === undefined && value.subject === undefined) {
        ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is required when subject is empty' });
      }
    }),
  );

/**
 * A body is HTML (with Liquid) or a block-editor document (lib/email/block), told apart by its
 * form, as the reference does when it renders. A body that is a document must be one the
 * renderer draws, and `editorType: 'block'` must come with a document (or an empty body).
 */
function blockBodyProblem(body: string, editorType: string | undefined): string | undefined {
  const parsed = blockDocumentOf(body);
  if (parsed) {
    return parsed.ok ? undefined : `body is not a valid block-editor document: ${parsed.message}`;
  }
  if (editorType === 'block' && body.trim() !== '') {
    return 'body must be a block-editor document (JSON of type "doc") when editorType is block';
  }
  return undefined;
}

const email = z
  .object({
    skip,
    subject: z.string({ error: 'subject is required' }),
    body: z.string({ error: 'body is required' }),
    editorType: z.optional(z.enum(['block', 'html'])),
    disableOutputSanitization: z.optional(z.boolean()),
    layoutId: z.optional(z.nullable(z.string())),
    // The step's own sender (Liquid templates), before the integration's `from` and `senderName`.
    from: z.optional(z.object({ email: z.optional(z.string()), name: z.optional(z.string()) })),
  })
  .check(
    z.superRefine((value, ctx) => {
      const problem = blockBodyProblem(value.body, value.editorType);
      if (problem) ctx.addIssue({ code: 'custom', path: ['body'], message: problem, input: value.body });
    }),
  );

const sms = z.object({ skip, body: z.optional(z.string()) });
const chat = z.object({ skip, body: z.optional(z.string()) });
const push = z.object({ skip, subject: z.optional(z.string()), body: z.optional(z.string()) });

const delay = z.object({
  skip,
  // Ours: wait for the subscriber to do `event` with an earlier step's message, at most the
  // delay's own wait (docs/engagement.md, "Steps that depend on engagement").
  waitFor: z.optional(
    z.object({
      stepId: z.string().check(z.minLength(1), z.maxLength(256)),
      event: z.enum(ENGAGEMENT_EVENTS),
    }),
  ),
  // dynamic: the payload at dynamicKey holds an ISO date or {amount, unit}, as in the reference.
  type: z.optional(z.enum(['regular', 'timed', 'dynamic'])),
  dynamicKey: z.optional(z.string()),
  amount: z.optional(z.number().check(z.positive('amount must be positive'))),
  unit: z.optional(timeUnit),
  cron: z.optional(cron),
  extendToSchedule,
});

const digest = z.object({
  skip,
  type: z.optional(z.enum(['regular', 'timed'])),
  amount: z.optional(z.number().check(z.gte(1, 'amount must be at least 1'))),
  unit: z.optional(timeUnit),
  lookBackWindow: z.optional(z.object({ amount: z.number().check(z.gte(1, 'amount must be at least 1')), unit: timeUnit })),
  cron: z.optional(cron),
  digestKey: z.optional(z.string()),
  extendToSchedule,
});

// The API's published schema does not show throttle controls; these are the reference's.
const throttle = z.object({
  skip,
  type: z.optional(z.enum(['fixed', 'dynamic'])),
  amount: z.optional(z.number().check(z.positive('amount must be positive'))),
  unit: z.optional(z.enum(['minutes', 'hours', 'days'])),
  dynamicKey: z.optional(z.string()),
  threshold: z.optional(z.number().check(z.int(), z.gte(1, 'threshold must be at least 1'))),
  throttleKey: z.optional(z.string()),
});

/** A custom step's controls are the author's own: kept whole. */
const custom = z.catchall(z.object({ custom: z.optional(z.record(z.string(), z.unknown())) }), z.unknown());

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
} as const satisfies Record<StepType, z.ZodMiniType>;

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
