import { findProvider } from '../../integrations/catalogue.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import type { Attempt } from '../../providers/failover.ts';
import { DETAILS, detail } from '../details.ts';
import type { ExecutionDetail } from '../model.ts';

// The activity feed's account of a failover: for each integration that failed transiently, its
// failure (which integration, what the provider answered) and the move to the next one.

const named = ({ providerId, identifier, name, _id }: StoredIntegration) => ({ providerId, identifier, name, _id });

/** `failed`: the attempts before the last, in order; `last`: the integration tried last. */
export function failoverDetails(failed: readonly Attempt[], last: StoredIntegration, messageId: string, now: Date): ExecutionDetail[] {
  return failed.flatMap(({ integration, error }, n) => {
    const to = failed[n + 1]?.integration ?? last;
    const displayName = findProvider(to.providerId)?.displayName ?? to.providerId;
    return [
      detail(
        DETAILS.providerError,
        'Failed',
        {
          messageId,
          providerId: integration.providerId,
          raw: { integration: named(integration), error: error?.message, answer: error?.raw },
        },
        now,
      ),
      detail(
        DETAILS.failingOver(`${displayName} (${to.identifier})`),
        'Pending',
        { messageId, providerId: to.providerId, raw: { integration: named(to) } },
        now,
      ),
    ];
  });
}
