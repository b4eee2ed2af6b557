import { AppError } from '../errors.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import { findChannelIntegration } from './channel-integration.ts';
import { identify } from './identify.ts';
import type { BulkCreateSubscribersInput } from './schemas.ts';
import type { IntegrationFinder } from './upsert.ts';

const CONCURRENT_SUBSCRIBERS = 10;

export interface BulkCreateResult {
  created: { subscriberId: string }[];
  updated: { subscriberId: string }[];
  failed: { subscriberId: string; message: string }[];
}

type Outcome = 'created' | 'updated' | { message: string };

/**
 * The legacy bulk create (`POST /v1/subscribers/bulk`): each entry is identified as identify does
 * it and named in `created` or `updated`; an entry that cannot be (a channel without an active
 * integration, too many device tokens) is named in `failed` with the reason, and the others go
 * on. Entries of one subscriberId apply in order; different subscribers run concurrently. The
 * lists keep the order of the request.
 */
export async function bulkCreateSubscribers(scope: EnvScope, input: BulkCreateSubscribersInput): Promise<BulkCreateResult> {
  const find = sharedFinder(scope);
  const bySubscriber = new Map<string, number[]>();
  input.subscribers.forEach((entry, index) =>
    bySubscriber.set(entry.subscriberId, [...(bySubscriber.get(entry.subscriberId) ?? []), index]),
  );

  const outcomes = new Array<Outcome>(input.subscribers.length);
  await mapConcurrently([...bySubscriber.values()], CONCURRENT_SUBSCRIBERS, async (indexes) => {
    for (const index of indexes) {
      try {
        const { created } = await identify(scope, input.subscribers[index]!, find);
        outcomes[index] = created ? 'created' : 'updated';
      } catch (error) {
        // What the request asks that cannot be done fails the entry; faults fail the request.
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        outcomes[index] = { message: error.message };
      }
    }
  });

  const result: BulkCreateResult = { created: [], updated: [], failed: [] };
  outcomes.forEach((outcome, index) => {
    const { subscriberId } = input.subscribers[index]!;
    if (typeof outcome === 'string') result[outcome].push({ subscriberId });
    else result.failed.push({ subscriberId, message: outcome.message });
  });
  return result;
}

/** One lookup per provider and identifier for the whole request. */
function sharedFinder(scope: EnvScope): IntegrationFinder {
  const found = new Map<string, ReturnType<IntegrationFinder>>();
  return (providerId, identifier) => {
    const key = `${providerId}\u0000${identifier ?? ''}`;
    let lookup = found.get(key);
    if (!lookup) {
      lookup = findChannelIntegration(scope, providerId, identifier);
      found.set(key, lookup);
    }
    return lookup;
  };
}
