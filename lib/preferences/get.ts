import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { listWorkflows } from '../workflows/repository.ts';
import { getSubscriberWithChoices } from './repository.ts';
import { ofCriticality, resolveGlobalPreference, resolveWorkflowPreference, type Criticality } from './resolve.ts';
import type { SubscriberPreferences } from './schemas.ts';

export type { Criticality } from './resolve.ts';

/**
 * A subscriber's preferences for every active workflow of the environment (of the requested
 * criticality), and the global block limited to the channels those workflows use.
 */
export async function getSubscriberPreferences(
  scope: EnvScope,
  subscriberId: string,
  criticality: Criticality,
): Promise<SubscriberPreferences> {
  const [{ subscriber, choices }, workflows] = await Promise.all([getSubscriberWithChoices(scope, subscriberId), listWorkflows(scope)]);
  if (!subscriber) throw new NotFoundError(`Subscriber with id: ${subscriberId} not found`);

  const shown = workflows.filter((workflow) => workflow.active && ofCriticality(workflow, criticality));
  return {
    global: resolveGlobalPreference(shown, choices),
    workflows: shown.map((workflow) => {
      const { enabled, channels, overrides } = resolveWorkflowPreference(workflow, choices);
      return {
        enabled,
        channels,
        overrides,
        workflow: { slug: workflow.slug, identifier: workflow.workflowId, name: workflow.name, updatedAt: workflow.updatedAt },
      };
    }),
  };
}
