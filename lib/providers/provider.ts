import type { Channel } from '../integrations/catalogue.ts';
import type { Integration } from '../integrations/schemas.ts';
import type { StoredIntegration } from '../integrations/repository.ts';
import type { ChannelSettings } from '../subscribers/model.ts';

// What the pipeline asks of a provider: deliver one rendered message to one destination with
// one integration's credentials, and say what the provider answered.

export interface Delivery {
  channel: Channel;
  /** Email address, phone number, webhook URL or device token. */
  to: string;
  subject?: string;
  /** Email: the HTML document to send (layout applied, CSS inlined); other channels: text. */
  content: string;
  /** The step's own sender (its control values), before overrides and credentials. */
  from?: string;
  senderName?: string;
  data?: Record<string, unknown>;
  /**
   * The trigger's overrides for this send: `overrides.<channel>` merged with
   * `overrides[providerId]` (from, senderName, replyTo, cc, bcc, text, headers, customData, ...).
   */
  overrides?: Record<string, unknown>;
  /**
   * `overrides.providers[providerId]` merged with `overrides.steps[stepId].providers[providerId]`:
   * merged into the provider's own request as it is (`_passthrough` body/headers/query too).
   */
  providerData?: Record<string, unknown>;
  /** Chat and push: the subscriber's credentials for this provider (Mattermost/Rocket.Chat `channel`, Grafana alert fields). */
  channelCredentials?: ChannelSettings['credentials'];
  integration: StoredIntegration;
  /**
   * Chat through a channel connection (lib/channels): the workspace's token to post with; `to`
   * is then the provider's channel or user id.
   */
  connection?: ConnectionDestination;
}

/** A chat destination reached through a channel connection (a channel endpoint's). */
export interface ConnectionDestination {
  identifier: string;
  /** The workspace's token (Slack); Teams posts with the bot's own token instead. */
  accessToken: string;
  /** The workspace the connection is for: a Slack team, a Microsoft tenant. */
  workspaceId: string;
  /** Whether `to` is a channel or a user; a Teams channel also names its team. */
  kind: 'channel' | 'user';
  teamId?: string;
}

export interface DeliveryResult {
  /** The provider's id of the message. */
  id: string;
  raw?: unknown;
}

/** What a connection check needs: the integration being created or changed, saved or not. */
export type ConnectionTarget = Pick<Integration, 'providerId' | 'credentials'>;

/** A provider's send code (registry.ts); its credential rules and connection check are in credential-checks.ts. */
export interface DeliveryProvider {
  send(delivery: Delivery): Promise<DeliveryResult>;
}

/**
 * A provider refused or failed; `raw` is its answer, kept in the execution detail. `transient`:
 * the failure was worth another try and the retries ran out (retry.ts), so another integration
 * of the channel may be tried (failover.ts); a refusal is not.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly raw?: unknown,
    readonly transient = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
