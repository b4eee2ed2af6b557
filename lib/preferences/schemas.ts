import * as z from 'zod';
import { CHANNELS } from '../integrations/providers.ts';
import { minutesOf, TIME_12H, WEEK_DAYS } from './schedule-times.ts';

// Shapes of the subscriber preferences endpoints (interface.md "Subscriber preferences").

const channelFlags = Object.fromEntries(CHANNELS.map((c) => [c, z.boolean().optional()])) as Record<
  (typeof CHANNELS)[number],
  z.ZodOptional<z.ZodBoolean>
>;
export const preferenceChannelsSchema = z.object(channelFlags).meta({ id: 'PreferenceChannels' });
export type PreferenceChannels = z.infer<typeof preferenceChannelsSchema>;

const time12h = z.string().regex(TIME_12H, 'must be a 12-hour time like "09:00 AM"');

const hoursSchema = z
  .object({ start: time12h, end: time12h })
  .refine((h) => !TIME_12H.test(h.start) || !TIME_12H.test(h.end) || minutesOf(h.start) < minutesOf(h.end), {
    message: 'start must be before end',
    path: ['end'],
  });

const daySchema = z.object({ isEnabled: z.boolean(), hours: z.array(hoursSchema).max(24).optional() });

export const scheduleSchema = z
  .object({
    isEnabled: z.boolean(),
    weeklySchedule: z.object(Object.fromEntries(WEEK_DAYS.map((d) => [d, daySchema.optional()])) as Record<
      (typeof WEEK_DAYS)[number],
      z.ZodOptional<typeof daySchema>
    >).optional(),
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof scheduleSchema>;

export const getPreferencesQuery = z.object({
  criticality: z.enum(['critical', 'nonCritical', 'all']).default('nonCritical'),
});

export const patchPreferencesBody = z
  .object({
    /** Omitted: the global preferences; else the workflow (workflowId or database id) to change. */
    workflowId: z.string().min(1).optional(),
    channels: preferenceChannelsSchema.optional(),
    schedule: scheduleSchema.optional(),
  })
  .refine((b) => b.channels !== undefined || b.schedule !== undefined, {
    message: 'channels or schedule is required',
    path: ['channels'],
  })
  .refine((b) => b.workflowId === undefined || b.schedule === undefined, {
    message: 'a schedule applies to the global preferences only, not to one workflow',
    path: ['schedule'],
  });
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
    workflow: z.object({ slug: z.string(), identifier: z.string(), name: z.string(), updatedAt: z.string().optional() }),
  })
  .meta({ id: 'WorkflowPreference' });
export type WorkflowPreference = z.infer<typeof workflowPreferenceSchema>;

export const globalPreferenceSchema = z
  .object({ enabled: z.boolean(), channels: preferenceChannelsSchema, schedule: scheduleSchema.optional() })
  .meta({ id: 'GlobalPreference' });
export type GlobalPreference = z.infer<typeof globalPreferenceSchema>;

export const subscriberPreferencesSchema = z
  .object({ global: globalPreferenceSchema, workflows: z.array(workflowPreferenceSchema) })
  .meta({ id: 'SubscriberPreferences' });
export type SubscriberPreferences = z.infer<typeof subscriberPreferencesSchema>;
