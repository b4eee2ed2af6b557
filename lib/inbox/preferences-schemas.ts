import * as z from '../zod.ts';
import { CHANNELS } from '../integrations/catalogue.ts';
import { preferenceChannelsSchema, scheduleSchema, weeklyScheduleSchema } from '../preferences/schemas.ts';
import type { Severity } from '../workflows/model.ts';

// Shapes of the inbox's preferences routes (`/v1/inbox/preferences…`), as `@novu/js` sends and
// reads them. Bodies are strict: a field this service cannot honour (a preference `condition`, a
// workflow's `schedule`, the `tool` channel, any unknown key) is refused by name, never dropped.

const SEVERITIES = ['high', 'medium', 'low', 'none'] as const satisfies readonly Severity[];
const MAX_FILTER_VALUES = 100;
/** What the bulk route takes at once. */
export const MAX_BULK_PREFERENCES = 100;

/** A key sent once or repeated (the route reads repeated keys as lists: `tags[]=a&tags[]=b`). */
const oneOrMany = <T extends z.ZodMiniType<string, string>>(item: T) =>
  z.pipe(
    z.pipe(
      z.union([z.string(), z.array(z.string())]),
      z.transform((value) => (Array.isArray(value) ? value : [value])),
    ),
    z.array(item).check(z.maxLength(MAX_FILTER_VALUES, `must have at most ${MAX_FILTER_VALUES} values`)),
  );

const tag = z.string().check(z.minLength(1, 'a tag must not be empty'), z.maxLength(256));
const severity = z.enum(SEVERITIES);

/** The client sends `tags[]` and `severity` or `severity[]`; the bare forms are taken too. */
export const listPreferencesQuery = z.object({
  'tags[]': z.optional(oneOrMany(tag)),
  tags: z.optional(oneOrMany(tag)),
  'severity[]': z.optional(oneOrMany(severity)),
  severity: z.optional(oneOrMany(severity)),
  criticality: z._default(z.enum(['critical', 'nonCritical', 'all']), 'nonCritical'),
});
export type ListPreferencesQuery = z.infer<typeof listPreferencesQuery>;

export interface PreferencesFilter {
  /** Workflows with any of these tags (none: every workflow). */
  tags: string[];
  /** Workflows of any of these severities (none: every workflow). */
  severities: Severity[];
  criticality: 'critical' | 'nonCritical' | 'all';
}

export function preferencesFilterOf(query: ListPreferencesQuery): PreferencesFilter {
  return {
    tags: [...(query['tags[]'] ?? []), ...(query.tags ?? [])],
    severities: [...(query['severity[]'] ?? []), ...(query.severity ?? [])],
    criticality: query.criticality,
  };
}

export const workflowPreferenceParams = z.object({
  workflowIdOrIdentifier: z.string().check(z.minLength(1), z.maxLength(256)),
});

const channelFlags = Object.fromEntries(CHANNELS.map((c) => [c, z.optional(z.boolean())])) as Record<
  (typeof CHANNELS)[number],
  z.ZodMiniOptional<z.ZodMiniBoolean>
>;

/** A field the client may send that this service cannot honour: refused with the reason. */
const refused = (field: string, why: string) =>
  z.refine((body: unknown) => (body as Record<string, unknown>)[field] === undefined, {
    message: `${field} is not supported: ${why}`,
    path: [field],
  });

const NO_TOOL = 'this service has no tool channel';
const NO_CONDITION = 'preference conditions apply to topic subscriptions, which this service does not have';
const GLOBAL_SCHEDULE = 'a schedule belongs to the global preferences (PATCH /v1/inbox/preferences)';

const workflowFields = {
  ...channelFlags,
  /** False switches the whole workflow off for the subscriber (every channel). */
  enabled: z.optional(z.boolean()),
  tool: z.optional(z.unknown()),
  condition: z.optional(z.unknown()),
  schedule: z.optional(z.unknown()),
};
const workflowChecks = [refused('tool', NO_TOOL), refused('condition', NO_CONDITION), refused('schedule', GLOBAL_SCHEDULE)];

export const updateGlobalPreferencesBody = z
  .strictObject({
    ...channelFlags,
    tool: z.optional(z.unknown()),
    /** Fields not sent keep their value. */
    schedule: z.optional(z.strictObject({ isEnabled: z.optional(z.boolean()), weeklySchedule: z.optional(weeklyScheduleSchema) })),
  })
  .check(refused('tool', NO_TOOL));
export type UpdateGlobalPreferencesInput = z.infer<typeof updateGlobalPreferencesBody>;

export const updateWorkflowPreferencesBody = z.strictObject(workflowFields).check(...workflowChecks);
export type UpdateWorkflowPreferencesInput = z.infer<typeof updateWorkflowPreferencesBody>;

const bulkItem = z
  .strictObject({ workflowId: z.string().check(z.minLength(1, 'workflowId must not be empty'), z.maxLength(256)), ...workflowFields })
  .check(...workflowChecks);
export type BulkPreferenceInput = z.infer<typeof bulkItem>;

export const bulkUpdatePreferencesBody = z.strictObject({
  preferences: z.array(bulkItem).check(z.maxLength(MAX_BULK_PREFERENCES, `must have at most ${MAX_BULK_PREFERENCES} items`)),
});
export type BulkUpdatePreferencesInput = z.infer<typeof bulkUpdatePreferencesBody>;

// ---- answers ---------------------------------------------------------------------------------

export const inboxPreferenceSchema = z
  .object({
    level: z.enum(['global', 'template']),
    enabled: z.boolean(),
    channels: preferenceChannelsSchema,
    overrides: z.optional(z.array(z.object({ channel: z.enum(CHANNELS), source: z.enum(['subscriber', 'template', 'workflowOverride']) }))),
    workflow: z.optional(
      z.object({ id: z.string(), identifier: z.string(), name: z.string(), critical: z.boolean(), tags: z.array(z.string()), severity }),
    ),
    schedule: z.optional(scheduleSchema),
  })
  .register(z.globalRegistry, { id: 'InboxPreference' });
export type InboxPreference = z.infer<typeof inboxPreferenceSchema>;

export const inboxPreferenceListSchema = z.array(inboxPreferenceSchema);
