import { NotFoundError } from '../errors.ts';
import { CHANNELS } from '../integrations/catalogue.ts';
import type { EnvScope } from '../scope.ts';
import { channelsOf, isCritical, type StoredWorkflow } from '../workflows/model.ts';
import { listWorkflows } from '../workflows/repository.ts';
import {
  getSubscriberForWorkflow,
  getSubscriberWithChoices,
  updateChoice,
  type ChoiceChange,
  type SubscriberChoices,
} from './repository.ts';
import { resolveWorkflowPreference } from './resolve.ts';
import type {
  PreferenceChannels,
  V1GlobalPreference,
  V1GlobalPreferencesInput,
  V1WorkflowPreference,
  V1WorkflowPreferenceInput,
} from './schemas.ts';
import { assertSubscriber, changeableWorkflow } from './update.ts';
import { v1GlobalItem, v1WorkflowItem } from './v1-view.ts';

// The legacy v1 API's subscriber preferences (`/v1/subscribers/{id}/preferences…`): the same
// stored choices and the same merge as the v2 API and the inbox, in the older shapes.

export type PreferenceLevel = 'global' | 'template';

/**
 * `template`: one item per active workflow (critical ones included, marked so); `global`: the
 * global item alone. Both in a list, as the reference answers.
 */
export async function getV1Preferences(
  scope: EnvScope,
  subscriberId: string,
  level: PreferenceLevel,
  includeInactiveChannels: boolean,
): Promise<V1WorkflowPreference[] | V1GlobalPreference[]> {
  const { choices, active } = await load(scope, subscriberId);
  if (level === 'global') return [globalOf(active, choices, includeInactiveChannels)];
  return active.map((workflow) =>
    v1WorkflowItem(resolveWorkflowPreference(workflow, choices, includeInactiveChannels ? CHANNELS : channelsOf(workflow))),
  );
}

/** The subscriber's choices and the environment's active workflows (two reads); 404 without the subscriber. */
async function load(scope: EnvScope, subscriberId: string): Promise<{ choices: SubscriberChoices; active: StoredWorkflow[] }> {
  const [{ subscriber, choices }, workflows] = await Promise.all([getSubscriberWithChoices(scope, subscriberId), listWorkflows(scope)]);
  if (!subscriber) throw new NotFoundError(`Subscriber ${subscriberId} not found`);
  return { choices, active: workflows.filter((workflow) => workflow.active) };
}

/** The global item's channels are those of the workflows a subscriber can change (active, not critical). */
const globalOf = (active: StoredWorkflow[], choices: SubscriberChoices, includeInactive: boolean) =>
  v1GlobalItem(
    active.filter((workflow) => !isCritical(workflow)),
    choices,
    includeInactive,
  );

/** Changes the global switch and the channels sent; answers the global item. */
export async function updateV1GlobalPreferences(
  scope: EnvScope,
  subscriberId: string,
  input: V1GlobalPreferencesInput,
): Promise<V1GlobalPreference> {
  await assertSubscriber(scope, subscriberId);
  const channels: PreferenceChannels = {};
  for (const { type, enabled } of input.preferences ?? []) channels[type] = enabled;
  await write(scope, subscriberId, { kind: 'global' }, { channels, ...(input.enabled !== undefined && { enabled: input.enabled }) });
  const { choices, active } = await load(scope, subscriberId);
  return globalOf(active, choices, true);
}

/** Changes one channel and the switch of one workflow (named by database id or workflowId); answers its item. */
export async function updateV1WorkflowPreference(
  scope: EnvScope,
  subscriberId: string,
  workflowRef: string,
  input: V1WorkflowPreferenceInput,
): Promise<V1WorkflowPreference> {
  await assertSubscriber(scope, subscriberId);
  const workflow = await changeableWorkflow(scope, workflowRef);
  const channels: PreferenceChannels = input.channel ? { [input.channel.type]: input.channel.enabled } : {};
  await write(
    scope,
    subscriberId,
    { kind: 'workflow', workflowDbId: workflow._id },
    { channels, ...(input.enabled !== undefined && { enabled: input.enabled }) },
  );
  const { choices } = await getSubscriberForWorkflow(scope, subscriberId, workflow._id);
  return v1WorkflowItem(resolveWorkflowPreference(workflow, choices, CHANNELS));
}

/** A change that sets nothing writes nothing. */
async function write(
  scope: EnvScope,
  subscriberId: string,
  target: Parameters<typeof updateChoice>[2],
  change: ChoiceChange,
): Promise<void> {
  if (Object.keys(change.channels ?? {}).length === 0 && change.enabled === undefined) return;
  await updateChoice(scope, subscriberId, target, change);
}
