import type { SubscriberSession } from '../auth/session-token.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { getSubscriberForWorkflow, getSubscriberWithChoices, updateChoice, type ChoiceChange } from '../preferences/repository.ts';
import { resolveWorkflowPreference } from '../preferences/resolve.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { resolveWorkflow } from '../workflows/lookup.ts';
import { isCritical } from '../workflows/model.ts';
import type { VersionedWorkflow } from '../workflows/repository.ts';
import { channelsOf, isEmpty } from './preference-change.ts';
import type { BulkUpdatePreferencesInput, InboxPreference, UpdateWorkflowPreferencesInput } from './preferences-schemas.ts';
import { workflowPreferenceItem } from './preferences-view.ts';
import { inboxOf } from './inbox.ts';
import { assertSessionSubscriber } from './session-subscriber.ts';

// The inbox's changes of workflow preferences, one workflow or several, stored as the v2 API
// stores them (lib/preferences/repository.ts). Everything is checked (the subscriber, every
// workflow named) before anything is written; the answer is read back after the write.

/** The workflow a preference change names, if the subscriber may change it. */
function changeable(workflow: VersionedWorkflow | undefined, ref: string): VersionedWorkflow {
  if (!workflow) throw new NotFoundError(`Workflow with id: ${ref} is not found`);
  // A critical workflow's delivery does not depend on the subscriber; a stored choice would mislead.
  if (isCritical(workflow)) throw new BadRequestError(`Critical workflow with id: ${ref} can not be updated`);
  return workflow;
}

function workflowChange(input: UpdateWorkflowPreferencesInput): ChoiceChange {
  return { channels: channelsOf(input), ...(input.enabled !== undefined && { enabled: input.enabled }) };
}

async function writeWorkflowChoice(
  scope: EnvScope,
  subscriberId: string,
  workflow: VersionedWorkflow,
  change: ChoiceChange,
): Promise<void> {
  if (!isEmpty(change)) await updateChoice(scope, subscriberId, { kind: 'workflow', workflowDbId: workflow._id }, change);
}

export async function updateInboxWorkflowPreference(
  session: SubscriberSession,
  workflowIdOrIdentifier: string,
  input: UpdateWorkflowPreferencesInput,
): Promise<InboxPreference> {
  const { scope } = inboxOf(session);
  const { subscriberId } = session;
  const [subscriber, found] = await Promise.all([getSubscriber(scope, subscriberId), resolveWorkflow(scope, workflowIdOrIdentifier)]);
  assertSessionSubscriber(session, subscriber);
  const workflow = changeable(found, workflowIdOrIdentifier);
  await writeWorkflowChoice(scope, subscriberId, workflow, workflowChange(input));
  const { choices } = await getSubscriberForWorkflow(scope, subscriberId, workflow._id);
  return workflowPreferenceItem(resolveWorkflowPreference(workflow, choices));
}

/**
 * Several workflows' preferences at once, each named by id or identifier. Items naming the same
 * workflow apply in order (later ones win per field); the answer has one item per workflow, in
 * the order they were first named.
 */
export async function bulkUpdateInboxPreferences(
  session: SubscriberSession,
  input: BulkUpdatePreferencesInput,
): Promise<InboxPreference[]> {
  const { scope } = inboxOf(session);
  return updateWorkflowPreferences(
    scope,
    session.subscriberId,
    input.preferences.map((item) => ({ workflowId: item.workflowId, change: workflowChange(item) })),
    (subscriber) => assertSessionSubscriber(session, subscriber),
  );
}

/**
 * Several workflows' preferences of one subscriber at once (the inbox's bulk change and PATCH
 * /v2/subscribers/{subscriberId}/preferences/bulk): `checkSubscriber` refuses a subscriber the
 * caller may not change before anything is written.
 */
export async function updateWorkflowPreferences(
  scope: EnvScope,
  subscriberId: string,
  items: readonly { workflowId: string; change: ChoiceChange }[],
  checkSubscriber: (subscriber: Subscriber | undefined) => void,
): Promise<InboxPreference[]> {
  const refs = [...new Set(items.map((item) => item.workflowId))];
  const [subscriber, ...found] = await Promise.all([getSubscriber(scope, subscriberId), ...refs.map((ref) => resolveWorkflow(scope, ref))]);
  checkSubscriber(subscriber);
  const byRef = new Map(refs.map((ref, i) => [ref, changeable(found[i], ref)]));

  const changes = new Map<string, { workflow: VersionedWorkflow; change: ChoiceChange }>();
  for (const item of items) {
    const workflow = byRef.get(item.workflowId)!;
    const entry = changes.get(workflow._id) ?? { workflow, change: { channels: {} } };
    const next = item.change;
    entry.change = { ...entry.change, ...next, channels: { ...entry.change.channels, ...next.channels } };
    changes.set(workflow._id, entry);
  }
  await Promise.all([...changes.values()].map(({ workflow, change }) => writeWorkflowChoice(scope, subscriberId, workflow, change)));

  const { choices } = await getSubscriberWithChoices(scope, subscriberId);
  return [...changes.values()].map(({ workflow }) => workflowPreferenceItem(resolveWorkflowPreference(workflow, choices)));
}
