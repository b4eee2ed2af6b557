import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
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
  const recorded = message ? { messageId: message._id, providerId: message.providerId } : {};
  // However it ended, the lease is over and the chain goes on as after any send.
  const ended = (status: 'completed' | 'failed', text: string, fields: Partial<StoredJob>): Decision => ({
    status,
    details: [detail(text, status === 'completed' ? 'Success' : 'Failed', recorded, now)],
    job: { ...fields, leaseUntil: undefined },
    after: { kind: 'next' },
  });
  if (!message) return ended('failed', DETAILS.outcomeUnknown, { error: DETAILS.outcomeUnknown });
  if (message.status === 'sent') return ended('completed', DETAILS.messageSent, recorded);
  const error = message.errorText ?? DETAILS.providerError;
  return ended('failed', error, { ...recorded, error });
}
