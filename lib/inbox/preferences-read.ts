import type { SubscriberSession } from '../auth/session-token.ts';
import { getSubscriberWithChoices, type SubscriberChoices } from '../preferences/repository.ts';
import { ofCriticality, resolveGlobalPreference, resolveWorkflowPreference } from '../preferences/resolve.ts';
import { isCritical, type StoredWorkflow } from '../workflows/model.ts';
import { listWorkflows } from '../workflows/repository.ts';
import type { InboxPreference, PreferencesFilter } from './preferences-schemas.ts';
import { globalPreferenceItem, workflowPreferenceItem } from './preferences-view.ts';
import { inboxOf } from './inbox.ts';
import { assertSessionSubscriber } from './session-subscriber.ts';

// The inbox's preferences screen: the session's subscriber's global preferences, then one item
// per active workflow of its environment that the filters select. Two reads whatever the filters:
// the subscriber's partition (profile and choices, one Query) and the environment's workflows.

interface Loaded {
  choices: SubscriberChoices;
  /** The environment's active workflows, oldest first. */
  workflows: StoredWorkflow[];
}

async function loadSessionPreferences(session: SubscriberSession): Promise<Loaded> {
  const { scope } = inboxOf(session);
  const [{ subscriber, choices }, workflows] = await Promise.all([
    getSubscriberWithChoices(scope, session.subscriberId),
    listWorkflows(scope),
  ]);
  assertSessionSubscriber(session, subscriber);
  return { choices, workflows: workflows.filter((workflow) => workflow.active) };
}

/**
 * The global item whatever the filters: its channels are those of the workflows a subscriber can
 * change (active, not critical), as the reference computes them.
 */
function globalItemOf({ choices, workflows }: Loaded): InboxPreference {
  return globalPreferenceItem(
    resolveGlobalPreference(
      workflows.filter((workflow) => !isCritical(workflow)),
      choices,
    ),
  );
}

function selected(workflow: StoredWorkflow, filter: PreferencesFilter): boolean {
  if (!ofCriticality(workflow, filter.criticality)) return false;
  if (filter.tags.length > 0 && !workflow.tags.some((tag) => filter.tags.includes(tag))) return false;
  return filter.severities.length === 0 || filter.severities.includes(workflow.severity);
}

export async function listInboxPreferences(session: SubscriberSession, filter: PreferencesFilter): Promise<InboxPreference[]> {
  const loaded = await loadSessionPreferences(session);
  const items = loaded.workflows
    .filter((workflow) => selected(workflow, filter))
    .map((workflow) => workflowPreferenceItem(resolveWorkflowPreference(workflow, loaded.choices)));
  return [globalItemOf(loaded), ...items];
}

export async function getInboxGlobalPreference(session: SubscriberSession): Promise<InboxPreference> {
  return globalItemOf(await loadSessionPreferences(session));
}
