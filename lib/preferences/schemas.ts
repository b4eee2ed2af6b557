import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { CHANNELS } from '../integrations/catalogue.ts';
import { minutesOf, TIME_12H, WEEK_DAYS } from './schedule-times.ts';

// Shapes of the subscriber preferences endpoints (GET/PATCH /v2/subscribers/{subscriberId}/preferences).

const channelFlags = Object.fromEntries(CHANNELS.map((c) => [c, z.optional(z.boolean())])) as Record<
  (typeof CHANNELS)[number],
  z.ZodMiniOptional<z.ZodMiniBoolean>
>;
export const preferenceChannelsSchema = z.object(channelFlags).register(z.globalRegistry, { id: 'PreferenceChannels' });
export type PreferenceChannels = z.infer<typeof preferenceChannelsSchema>;

const time12h = z.string().check(z.regex(TIME_12H, 'must be a 12-hour time like "09:00 AM"'));

const hoursSchema = z.object({ start: time12h, end: time12h }).check(
  z.refine((h) => !TIME_12H.test(h.start) || !TIME_12H.test(h.end) || minutesOf(h.start) < minutesOf(h.end), {
    message: 'start must be before end',
    path: ['end'],
  }),
);

const daySchema = z.object({ isEnabled: z.boolean(), hours: z.optional(z.array(hoursSchema).check(z.maxLength(24))) });

export const weeklyScheduleSchema = z.object(
  Object.fromEntries(WEEK_DAYS.map((d) => [d, z.optional(daySchema)])) as Record<
    (typeof WEEK_DAYS)[number],
    z.ZodMiniOptional<typeof daySchema>
  >,
);

export const scheduleSchema = z
  .object({ isEnabled: z.boolean(), weeklySchedule: z.optional(weeklyScheduleSchema) })
  .register(z.globalRegistry, { id: 'Schedule' });
export type Schedule = z.infer<typeof scheduleSchema>;

export const getPreferencesQuery = z.object({
  criticality: z._default(z.enum(['critical', 'nonCritical', 'all']), 'nonCritical'),
});

export const patchPreferencesBody = z
  .object({
    /** Omitted: the global preferences; else the workflow (workflowId or database id) to change. */
    workflowId: z.optional(z.string().check(z.minLength(1))),
    channels: z.optional(preferenceChannelsSchema),
    schedule: z.optional(scheduleSchema),
  })
  .check(
    z.refine((b) => b.channels !== undefined || b.schedule !== undefined, {
      message: 'channels or schedule is required',
      path: ['channels'],
    }),
    z.refine((b) => b.workflowId === undefined || b.schedule === undefined, {
      message: 'a schedule applies to the global preferences only, not to one workflow',
      path: ['schedule'],
    }),
  );
export type PatchPreferencesInput = z.infer<typeof patchPreferencesBody>;

const overrideSchema = z.object({
  channel: z.enum(CHANNELS),
  source: z.enum(['subscriber', 'template', 'workflowOverride']),
});

export const workflowPreferenceSchema = z
  .object({
    enabled: z.boolean(),
    channels: preferenceChannelsSchema,
    overrides: z.array(overrideSchema),
    workflow: z.object({ slug: z.string(), identifier: z.string(), name: z.string(), updatedAt: z.optional(z.string()) }),
  })
  .register(z.globalRegistry, { id: 'WorkflowPreference' });
export type WorkflowPreference = z.infer<typeof workflowPreferenceSchema>;

export const globalPreferenceSchema = z
  .object({ enabled: z.boolean(), channels: preferenceChannelsSchema, schedule: z.optional(scheduleSchema) })
  .register(z.globalRegistry, { id: 'GlobalPreference' });
export type GlobalPreference = z.infer<typeof globalPreferenceSchema>;

export const subscriberPreferencesSchema = z
  .object({ global: globalPreferenceSchema, workflows: z.array(workflowPreferenceSchema) })
  .register(z.globalRegistry, { id: 'SubscriberPreferences' });
export type SubscriberPreferences = z.infer<typeof subscriberPreferencesSchema>;

// ---- the legacy v1 API (@novu/node 2.x): lists of channel switches, one item per workflow ----

const channelPreference = z.object({
  type: z.enum(CHANNELS, { error: `type must be one of the following values: ${CHANNELS.join(', ')}` }),
  enabled: z.boolean(),
});

/** The reference's default shows every channel; `false` only those the workflow's active steps use. */
export const v1PreferencesQuery = z.object({ includeInactiveChannels: z._default(z.stringbool(), true) });

const subscriberIdParam = z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH));
export const v1PreferenceLevelParams = z.object({
  subscriberId: subscriberIdParam,
  parameter: z.enum(['global', 'template'], { error: 'parameter must be one of the following values: global, template' }),
});
/** The workflow by database id (what the legacy API names it by), workflowId or slug. */
export const v1WorkflowPreferenceParams = z.object({
  subscriberId: subscriberIdParam,
  parameter: z.string().check(z.minLength(1), z.maxLength(256)),
});

export const v1GlobalPreferencesBody = z.object({
  enabled: z.optional(z.boolean()),
  /** Later entries of a channel win. */
  preferences: z.optional(z.array(channelPreference).check(z.maxLength(20))),
});
export type V1GlobalPreferencesInput = z.infer<typeof v1GlobalPreferencesBody>;

export const v1WorkflowPreferenceBody = z
  .object({ channel: z.optional(channelPreference), enabled: z.optional(z.boolean()) })
  .check(
    z.refine((b) => b.channel !== undefined || b.enabled !== undefined, { message: 'channel or enabled is required', path: ['channel'] }),
  );
export type V1WorkflowPreferenceInput = z.infer<typeof v1WorkflowPreferenceBody>;

const trigger = z.object({
  type: z.literal('event'),
  identifier: z.string(),
  variables: z.array(z.object({ name: z.string() })),
  subscriberVariables: z.array(z.object({ name: z.string() })),
});

export const v1WorkflowPreferenceSchema = z
  .object({
    template: z.object({ _id: z.string(), name: z.string(), tags: z.array(z.string()), critical: z.boolean(), triggers: z.array(trigger) }),
    preference: z.object({ enabled: z.boolean(), channels: preferenceChannelsSchema, overrides: z.array(overrideSchema) }),
  })
  .register(z.globalRegistry, { id: 'V1WorkflowPreference' });
export type V1WorkflowPreference = z.infer<typeof v1WorkflowPreferenceSchema>;

export const v1GlobalPreferenceSchema = z
  .object({ preference: z.object({ enabled: z.boolean(), channels: preferenceChannelsSchema }) })
  .register(z.globalRegistry, { id: 'V1GlobalPreference' });
export type V1GlobalPreference = z.infer<typeof v1GlobalPreferenceSchema>;

/** `global`: one global item; `template` (and the list): one item per active workflow. */
export const v1PreferencesResponse = z.union([z.array(v1WorkflowPreferenceSchema), z.array(v1GlobalPreferenceSchema)]);
