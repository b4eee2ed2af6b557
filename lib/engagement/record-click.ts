import { getMessage } from '../messages/repository.ts';
import { addClick } from '../messages/engagement-store.ts';
import { addEngagementDetail, ENGAGEMENT_DETAILS, MAX_CLICK_DETAILS } from './detail.ts';
import { openToken } from '../tracking/token.ts';

// A click on a tracked link: the token names the message and which of its links; the click is
// counted on the message (the first sets `clicked`, once), the job that sent it gets a detail,
// and the caller is sent to exactly the URL the message keeps for that link. The stored change
// of the message is what makes the `message.link_clicked` webhook (lib/webhooks/derive.ts). A
// token that does not open (forged, altered, of an open pixel, expired) or whose message is gone
// sends nowhere: the redirect never goes to a URL the request brought.

export async function recordClick(tokenText: string, now: Date = new Date()): Promise<{ url: string } | undefined> {
  const token = await openToken(tokenText, now);
  if (!token || token.kind !== 'click') return undefined;
  const scope = { organizationId: token.organizationId, environmentId: token.environmentId };
  const message = await getMessage(scope, token.subscriberId, token.messageId);
  const url = message?.links?.[token.link];
  if (!message || url === undefined) return undefined;
  const click = await addClick(scope, token.subscriberId, token.messageId, url, now);
  if (!click) return undefined;
  if (click.clickCount <= MAX_CLICK_DETAILS) {
    await addEngagementDetail(scope, message, ENGAGEMENT_DETAILS.clicked, { url, clickCount: click.clickCount }, now);
  }
  return { url };
}
