import type { Channel } from '../integrations/providers.ts';
import type { StoredIntegration } from '../integrations/repository.ts';

// What the pipeline asks of a provider: deliver one rendered message to one destination with
// one integration's credentials, and say what the provider answered.

export interface Delivery {
  channel: Channel;
  /** Email address, phone number, webhook URL or device token. */
  to: string;
  subject?: string;
  /** Email: HTML; other channels: text. */
  content: string;
  from?: string;
  senderName?: string;
  data?: Record<string, unknown>;
  integration: StoredIntegration;
}

export interface DeliveryResult {
  /** The provider's id of the message. */
  id: string;
  raw?: unknown;
}

export interface DeliveryProvider {
  send(delivery: Delivery): Promise<DeliveryResult>;
}

/** A provider refused or failed; `raw` is its answer, kept in the execution detail. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly raw?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
