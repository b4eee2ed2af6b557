import { getMessage } from '../messages/repository.ts';
import { setOpened } from '../messages/engagement-store.ts';
import { addEngagementDetail, ENGAGEMENT_DETAILS } from './detail.ts';
import { isPrefetch } from './prefetch.ts';
import { openToken } from '../tracking/token.ts';

// An email's open pixel was loaded: the first load by a person sets the message's `opened`
// (once; later loads change nothing) and adds a detail to the job that sent it; the stored change
// makes the `message.opened` webhook (lib/webhooks/derive.ts). Loads that look like a machine's
// (prefetch.ts) record nothing. Whatever happened, the caller gets the same pixel: a mail client
// learns nothing from the answer.

export type OpenResult = 'recorded' | 'ignored';

export async function recordOpen(
  tokenText: string,
  headers: Record<string, string | undefined>,
  now: Date = new Date(),
): Promise<OpenResult> {
  const token = await openToken(tokenText, now);
  if (!token || token.kind !== 'open' || isPrefetch(headers)) return 'ignored';
  const scope = { organizationId: token.organizationId, environmentId: token.environmentId };
  const message = await getMessage(scope, token.subscriberId, token.messageId);
  if (!message || message.opened) return 'ignored';
  if ((await setOpened(scope, token.subscriberId, token.messageId, now)) !== 'first') return 'ignored';
  // Nothing of the request (address, user agent) is kept: the time is all an open records.
  await addEngagementDetail(scope, message, ENGAGEMENT_DETAILS.opened, undefined, now);
  return 'recorded';
}
