import { listIntegrationsOfChannel } from '../integrations/repository.ts';
import type { Channel } from '../integrations/catalogue.ts';
import type { EnvScope } from '../scope.ts';
import { CHANNEL_STEP_TYPES, type StoredWorkflow } from './model.ts';
import type { ViewContext } from './view.ts';
import { existingLayouts } from '../layouts/step-layouts.ts';

// Which of the channels the given workflows use have an active integration in the environment:
// what MISSING_INTEGRATION is decided on (one index query per channel in use); and which of the
// layouts their email steps name exist (one read per layout, batched).

export async function viewContext(scope: EnvScope, workflows: readonly Pick<StoredWorkflow, 'steps'>[]): Promise<ViewContext> {
  const used = new Set<Channel>();
  for (const workflow of workflows) {
    for (const step of workflow.steps) {
      if (CHANNEL_STEP_TYPES.includes(step.type)) used.add(step.type as Channel);
    }
  }
  const activeChannels = new Set<Channel>();
  const [layouts] = await Promise.all([
    existingLayouts(scope, workflows),
    ...[...used].map(async (channel) => {
      const integrations = await listIntegrationsOfChannel(scope, channel);
      if (integrations.some((integration) => integration.active)) activeChannels.add(channel);
    }),
  ]);
  return { activeChannels, layouts };
}
