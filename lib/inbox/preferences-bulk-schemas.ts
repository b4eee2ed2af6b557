import * as z from '../zod.ts';
import { contextSchema } from '../events/schemas.ts';
import { inboxPreferenceSchema } from './preferences-schemas.ts';
import { preferenceChannelsSchema } from '../preferences/schemas.ts';

// PATCH /v2/subscribers/{subscriberId}/preferences/bulk (the SDK's BulkUpdateSubscriberPreferencesDto):
// the channels of up to 100 workflows at once; answered with each workflow's preferences after.

export const MAX_BULK_WORKFLOW_PREFERENCES = 100;

export const bulkPreferencesBody = z.object({
  preferences: z
    .array(
      z.object({
        workflowId: z.string().check(z.minLength(1, 'workflowId must not be empty'), z.maxLength(256)),
        channels: preferenceChannelsSchema,
      }),
    )
    .check(
      z.minLength(1, 'preferences must have at least 1 item'),
      z.maxLength(MAX_BULK_WORKFLOW_PREFERENCES, `preferences must have at most ${MAX_BULK_WORKFLOW_PREFERENCES} items`),
    ),
  /** Context-scoped preferences are off in the reference by default, and not kept here (docs/differences.md). */
  context: z.optional(contextSchema),
});
export type BulkPreferencesInput = z.infer<typeof bulkPreferencesBody>;

export const bulkPreferencesResponse = z.array(inboxPreferenceSchema).register(z.globalRegistry, { id: 'WorkflowPreferenceList' });
