import { ENV, optional } from '../config.ts';
import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { ttlOf } from '../store/retention.ts';
import type { MessageCta } from '../messages/model.ts';
import { isTrackable, linksOf, withPixel, withTrackedLinks, type ContentFormat } from './links.ts';
import type { LinkChannel } from '../accounts/tracking-settings.ts';
import { trackingSettingsOf } from './settings.ts';
import { sealToken, type TrackingToken } from './token.ts';

// What a channel step sends once tracking is applied: links replaced by `<stage>/t/<token>`,
// and for email with open tracking a 1×1 pixel `<stage>/o/<token>`. The message keeps the
// content as rendered and the original URLs (`links`, a token names a link by its index there),
// so the console and the API show what the customer wrote. Tokens stop working when the message
// expires (its retention).

export const CLICK_PATH = '/t/';
export const OPEN_PATH = '/o/';

export interface TrackTarget {
  scope: EnvScope;
  channel: LinkChannel;
  subscriberId: string;
  messageId: string;
}

export interface Tracked {
  content: string;
  /** The original URLs, when any link was replaced. */
  links?: string[];
}

/** The stage's public base URL; without one (a stage that does not know its URL) nothing is tracked. */
const baseUrl = (): string | undefined => optional(ENV.publicUrl)?.replace(/\/+$/, '');

async function tokens(target: TrackTarget) {
  return (kind: TrackingToken['kind'], link: number) =>
    sealToken({
      kind,
      organizationId: target.scope.organizationId,
      environmentId: target.scope.environmentId,
      subscriberId: target.subscriberId,
      messageId: target.messageId,
      link,
      expires: ttlOf('message', target.messageId).ttl,
    });
}

/** The stage's base URL when tracking is on for what is asked; else undefined (and nothing is tracked). */
function trackingBase(on: boolean): string | undefined {
  if (!on) return undefined;
  const base = baseUrl();
  if (!base) logger.warn('Tracking is on but the stage has no public URL: sent untracked', { variable: ENV.publicUrl });
  return base;
}

export async function trackContent(target: TrackTarget, content: string, format: ContentFormat): Promise<Tracked> {
  const settings = await trackingSettingsOf(target.scope);
  const trackLinks = settings.links[target.channel];
  const trackOpens = target.channel === 'email' && settings.opens.email;
  const base = trackingBase(trackLinks || trackOpens);
  if (!base) return { content };
  const token = await tokens(target);
  const links = trackLinks ? linksOf(content, format) : [];
  const tracked = await Promise.all(links.map(async (_, i) => `${base}${CLICK_PATH}${await token('click', i)}`));
  let out = links.length > 0 ? withTrackedLinks(content, format, tracked) : content;
  if (trackOpens) out = withPixel(out, `${base}${OPEN_PATH}${await token('open', 0)}`);
  return { content: out, ...(links.length > 0 && { links }) };
}

/**
 * In-app action URLs (the redirect and the buttons'), when the environment tracks in-app links:
 * the message's `cta` with tracked URLs, and the original ones.
 */
export async function trackActionUrls(target: TrackTarget, cta: MessageCta): Promise<{ cta: MessageCta; links?: string[] }> {
  const settings = await trackingSettingsOf(target.scope);
  const buttons = cta.action?.buttons ?? [];
  const links = [...new Set([cta.data?.url, ...buttons.map((b) => b.url)].filter((u): u is string => !!u && isTrackable(u)))];
  const base = trackingBase(settings.links[target.channel] && links.length > 0);
  if (!base) return { cta };
  const token = await tokens(target);
  const tracked = await Promise.all(links.map(async (_, i) => `${base}${CLICK_PATH}${await token('click', i)}`));
  const swap = (url: string | undefined) => (url !== undefined && links.includes(url) ? tracked[links.indexOf(url)]! : url);
  return {
    cta: {
      ...cta,
      ...(cta.data && { data: { ...cta.data, url: swap(cta.data.url) } }),
      ...(cta.action && { action: { ...cta.action, buttons: buttons.map((b) => ({ ...b, url: swap(b.url) })) } }),
    },
    links,
  };
}
