import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../store/keys.ts';
import type { Decision } from './decision.ts';
import { DETAILS, detail } from './details.ts';
import type { StoredJob, StoredNotification } from './model.ts';

/**
 * A send whose worker stopped before it recorded the outcome (its lease is over). The message the
 * send records is written before the job (store-decision.ts), under the id the lease noted: if it
 * is there, it says how the send ended, and the job records that. If not, the send may or may not
 * have reached the provider, and it is never repeated: the outcome is unknown.
 */
export async function decideStoppedSend(scope: EnvScope, notification: StoredNotification, job: StoredJob, now: Date): Promise<Decision> {
  const message = job.messageId && (await getMessage(scope, notification.subscriberId, job.messageId));
  if (!message) {
    return {
      status: 'failed',
      details: [detail(DETAILS.outcomeUnknown, 'Failed', {}, now)],
      job: { error: DETAILS.outcomeUnknown, leaseUntil: undefined },
      after: { kind: 'next' },
    };
  }
  const recorded = { messageId: message._id, providerId: message.providerId };
  if (message.status === 'sent') {
    return { status: 'completed', details: [detail(DETAILS.messageSent, 'Success', recorded, now)], job: { ...recorded, leaseUntil: undefined }, after: { kind: 'next' } };
  }
  const error = message.errorText ?? DETAILS.providerError;
  return { status: 'failed', details: [detail(error, 'Failed', recorded, now)], job: { ...recorded, error, leaseUntil: undefined }, after: { kind: 'next' } };
}
