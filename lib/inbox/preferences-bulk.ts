import { updateWorkflowPreferences } from './preferences-update-workflow.ts';
import type { InboxPreference } from './preferences-schemas.ts';
import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import type { BulkPreferencesInput } from './preferences-bulk-schemas.ts';

/**
 * PATCH /v2/subscribers/{subscriberId}/preferences/bulk (API key): the channels of several
 * workflows at once, with the single PATCH's rules: only the channels sent change, an unknown
 * workflow is a 404 and a critical one a 400, all checked before anything is written; items
 * naming the same workflow apply in order. Answered in the preference items the inbox shows,
 * which are the SDK's GetPreferencesResponseDto.
 */
export function bulkUpdateSubscriberPreferences(
  scope: EnvScope,
  subscriberId: string,
  input: BulkPreferencesInput,
): Promise<InboxPreference[]> {
  return updateWorkflowPreferences(
    scope,
    subscriberId,
    input.preferences.map((item) => ({ workflowId: item.workflowId, change: { channels: item.channels } })),
    (subscriber) => {
      if (!subscriber) throw new NotFoundError(`Subscriber with id: ${subscriberId} not found`);
    },
  );
}
