import { endpointTargets } from '../../channels/targets.ts';
import { findProvider } from '../../integrations/catalogue.ts';
import { getIntegration, type StoredIntegration } from '../../integrations/repository.ts';
import { slackBotChannel } from '../../providers/chat/slack-target.ts';
import type { ConnectionDestination } from '../../providers/provider.ts';
import { telegramChatId } from '../../providers/chat/telegram.ts';
import type { ChannelSettings } from '../../subscribers/model.ts';
import type { JobContext } from '../decision.ts';
import { DETAILS } from '../details.ts';

// Where a chat or push step sends, as in the reference: every entry of the subscriber's channels
// whose provider is of the step's channel and whose integration is active in this environment.
// Chat sends to a webhook URL (`overrides.chat.webhookUrl`, `payload.webhookUrl`, the entry's
// own), Slack with a bot token and Telegram to the entry's `channel`, WhatsApp to the
// subscriber's phone; push to every device token of the entry. An entry that lacks what it needs is skipped with
// the reference's reason. Chat also goes to each of the subscriber's channel endpoints
// of the trigger's context (lib/channels/targets.ts: a Slack channel or user through its
// connection's token, a webhook).

export interface ChannelTarget {
  integration: StoredIntegration;
  /** Webhook URL, phone (WhatsApp), device token, or (through a connection) the provider's channel or user id. */
  to: string;
  /** The subscriber's channel entry the target comes from (none for a channel endpoint). */
  settings?: ChannelSettings;
  /** A channel endpoint's connection: the workspace token the provider posts with. */
  connection?: ConnectionDestination;
  /** A webhook endpoint's channel, given to the provider as a channel entry's `channel` is. */
  channel?: string;
}

export interface SkippedEntry {
  /** The entry's integration, when it has an active one. */
  integration?: StoredIntegration;
  providerId: string;
  errorId: string;
  errorText: string;
  detail: string;
}

export interface ChannelTargets {
  /** Whether the subscriber has any entry of the channel at all. */
  configured: boolean;
  targets: ChannelTarget[];
  skipped: SkippedEntry[];
}

/** Chat providers that deliver to the subscriber's phone rather than a webhook. */
const PHONE_CHAT_PROVIDERS = new Set(['whatsapp-business']);

export async function chatPushTargets(
  context: JobContext,
  channel: 'chat' | 'push',
  overrides: Record<string, unknown>,
): Promise<ChannelTargets> {
  const { scope, notification, subscriber } = context;
  const entries = (subscriber?.channels ?? []).filter((s) => findProvider(s.providerId)?.channel === channel);
  const result: ChannelTargets = { configured: entries.length > 0, targets: [], skipped: [] };
  for (const settings of entries) {
    const { providerId } = settings;
    const found = await getIntegration(scope.organizationId, settings._integrationId);
    const integration = found?.active && found._environmentId === scope.environmentId ? found : undefined;
    // A Slack channel reached with the bot token, or a Telegram chat: an id, not a webhook URL.
    const botChannel =
      integration &&
      (slackBotChannel(providerId, integration.credentials, settings.credentials) ?? telegramChatId(providerId, settings.credentials));
    const skip = (errorId: string, errorText: string, detail = errorText) =>
      result.skipped.push({ ...(integration && { integration }), providerId, errorId, errorText, detail });
    if (!integration) {
      skip(channel === 'chat' ? 'chat_missing_integration_error' : 'unexpected_push_error', DETAILS.noIntegration);
    } else if (channel === 'push') {
      const tokens = settings.credentials.deviceTokens ?? [];
      if (tokens.length === 0) skip('unexpected_push_error', DETAILS.noPushTokens);
      for (const token of tokens) result.targets.push({ integration, to: token, settings });
    } else if (botChannel) {
      result.targets.push({ integration, to: botChannel, settings });
    } else if (PHONE_CHAT_PROVIDERS.has(providerId)) {
      const phone = subscriber?.phone;
      if (phone) result.targets.push({ integration, to: phone, settings });
      else skip('no_subscriber_chat_phone_number', 'Subscriber does not have active phone', DETAILS.missingPhone);
    } else {
      const url = text(overrides.webhookUrl) ?? text(notification.payload.webhookUrl) ?? text(settings.credentials.webhookUrl);
      if (url) result.targets.push({ integration, to: url, settings });
      else skip('no_subscriber_chat_channel_id', DETAILS.webhookUrlMissing);
    }
  }
  if (channel === 'chat' && subscriber) {
    const endpoints = await endpointTargets(scope, subscriber.subscriberId, notification.contextKeys);
    result.configured ||= endpoints.configured;
    for (const { integration, to, connection, channel: room } of endpoints.targets)
      result.targets.push({ integration, to, ...(connection && { connection }), ...(room && { channel: room }) });
    for (const { integration, endpoint, reason } of endpoints.skipped)
      result.skipped.push({
        ...(integration && { integration }),
        providerId: endpoint.providerId,
        errorId: 'chat_endpoint_unavailable',
        errorText: reason,
        detail: reason,
      });
  }
  return result;
}

/**
 * The destination's own fields a chat or push provider reads: the subscriber's channel entry's
 * credentials, or a webhook endpoint's `channel`.
 */
export function destinationCredentials(target: Pick<ChannelTarget, 'settings' | 'channel'>): ChannelSettings['credentials'] | undefined {
  return target.settings?.credentials ?? (target.channel ? { channel: target.channel } : undefined);
}

/**
 * What a chat message records of where it went: the phone (WhatsApp), the webhook URL, or
 * nothing for a Slack channel reached with a bot or connection token, or a Telegram chat.
 */
export function chatDestination(target: ChannelTarget): {
  phone?: string;
  directWebhookUrl?: string;
} {
  const { providerId, credentials } = target.integration;
  if (target.connection) return {};
  if (PHONE_CHAT_PROVIDERS.has(providerId)) return { phone: target.to };
  const own = destinationCredentials(target);
  const byId = slackBotChannel(providerId, credentials, own) ?? telegramChatId(providerId, own);
  return byId ? {} : { directWebhookUrl: target.to };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);
