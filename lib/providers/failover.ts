import type { Channel } from '../integrations/catalogue.ts';
import type { StoredIntegration } from '../integrations/repository.ts';
import type { EnvScope } from '../scope.ts';
import { channelFailoverEnabled } from '../accounts/organization-settings.ts';
import type { DeliveryResult, ProviderError } from './provider.ts';
import { SEND_BUDGET_MS } from './retry.ts';
import { failoverOrder, type SelectOptions } from './select.ts';

// Failover (ours, opt-in per environment: docs/architecture.md, "Failover"): an email or sms send
// whose integration failed transiently after its retries goes to the channel's next integration,
// then the next, until one accepts or none is left. A refusal (the provider answered with its
// reason) ends it: another vendor would be told the same message. Every send runs under the job's
// lease, so the next integration is tried only while a whole send budget still fits before the
// lease ends; the job then records one outcome, and a redelivery never sends again.

export interface Attempt {
  integration: StoredIntegration;
  result?: DeliveryResult;
  error?: ProviderError;
}

/** Time kept between the last send's budget and the end of the lease, for storing the outcome. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Sends through `first`, then through each of `next()` (read only once a failover is due) while
 * the failure is transient and time is left before `until`. The attempts in order; the last is
 * the outcome.
 */
export async function sendWithFailover(
  first: StoredIntegration,
  next: () => Promise<StoredIntegration[]>,
  until: Date,
  send: (integration: StoredIntegration) => Promise<Attempt>,
): Promise<Attempt[]> {
  const attempts = [await send(first)];
  let candidates: StoredIntegration[] | undefined;
  for (;;) {
    const last = attempts.at(-1)!;
    if (!last.error?.transient) return attempts;
    candidates ??= await next();
    const integration = candidates.shift();
    if (!integration || Date.now() + SEND_BUDGET_MS + LEASE_MARGIN_MS > until.getTime()) return attempts;
    attempts.push(await send(integration));
  }
}

/** The integrations a failover may go to: none unless the environment turned failover on. */
export async function failoverCandidates(
  scope: EnvScope,
  channel: Channel,
  chosen: StoredIntegration,
  options: SelectOptions,
): Promise<StoredIntegration[]> {
  return (await channelFailoverEnabled(scope)) ? failoverOrder(scope, channel, chosen, options) : [];
}
