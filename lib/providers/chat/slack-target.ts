import type { ChannelSettings } from '../../subscribers/model.ts';

// Whether a Slack send goes through the bot token rather than an incoming webhook: when the
// integration holds a bot token (apiToken) and the subscriber's credentials name a `channel`
// (a channel id, or a user id for a direct message). The pipeline asks it to pick the
// destination, the Slack provider to pick the call; without both, the webhook URL is used.

const SLACK_PROVIDERS = new Set(['slack', 'svc-slack']);

export function isSlackProvider(providerId: string): boolean {
  return SLACK_PROVIDERS.has(providerId);
}

export function slackBotToken(credentials: Record<string, unknown>): string | undefined {
  const token = credentials.apiToken;
  return typeof token === 'string' && token.trim() ? token.trim() : undefined;
}

/** The Slack channel to post to with the bot token, or undefined when the webhook is used. */
export function slackBotChannel(
  providerId: string,
  integrationCredentials: Record<string, unknown>,
  subscriberCredentials: ChannelSettings['credentials'] | undefined,
): string | undefined {
  if (!isSlackProvider(providerId) || !slackBotToken(integrationCredentials)) return undefined;
  const channel = subscriberCredentials?.channel?.trim();
  return channel || undefined;
}
