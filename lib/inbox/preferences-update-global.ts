import type { SubscriberSession } from '../auth/session-token.ts';
import { getGlobalChoice, updateChoice } from '../preferences/repository.ts';
import type { Schedule } from '../preferences/schemas.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { channelsOf, isEmpty } from './preference-change.ts';
import { getInboxGlobalPreference } from './preferences-read.ts';
import type { InboxPreference, UpdateGlobalPreferencesInput } from './preferences-schemas.ts';
import { inboxOf } from './inbox.ts';
import { assertSessionSubscriber } from './session-subscriber.ts';

// The inbox's change of the global preferences: channels, and the delivery schedule, stored as
// the v2 API stores them (lib/preferences/repository.ts): each channel sent is its own attribute,
// so concurrent changes of other channels survive. The answer is read back after the write.

/** The schedule after a change that may send only some of its fields (the rest keep their value). */
function mergedSchedule(stored: Schedule | undefined, sent: NonNullable<UpdateGlobalPreferencesInput['schedule']>): Schedule {
  const weeklySchedule = sent.weeklySchedule ?? stored?.weeklySchedule;
  return { isEnabled: sent.isEnabled ?? stored?.isEnabled ?? false, ...(weeklySchedule && { weeklySchedule }) };
}

export async function updateInboxGlobalPreference(
  session: SubscriberSession,
  input: UpdateGlobalPreferencesInput,
): Promise<InboxPreference> {
  const { scope } = inboxOf(session);
  const { subscriberId } = session;
  assertSessionSubscriber(session, await getSubscriber(scope, subscriberId));
  const channels = channelsOf(input);
  const schedule = input.schedule;
  if (schedule && (schedule.isEnabled !== undefined || schedule.weeklySchedule !== undefined)) {
    // A merge with the stored schedule: written only if nothing changed since it was read.
    await retryOnStaleWrite(async () => {
      const stored = await getGlobalChoice(scope, subscriberId);
      const change = { channels, schedule: mergedSchedule(stored?.schedule, schedule) };
      await updateChoice(scope, subscriberId, { kind: 'global' }, change, { ifVersion: stored?.version });
    });
  } else if (!isEmpty({ channels })) {
    await updateChoice(scope, subscriberId, { kind: 'global' }, { channels });
  }
  return getInboxGlobalPreference(session);
}
