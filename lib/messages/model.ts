import type { Channel } from '../integrations/catalogue.ts';
import type { Severity } from '../workflows/model.ts';

// A message: what one channel step delivered (or failed to deliver) to one subscriber. In-app
// messages are the subscriber's inbox; others record the send and its outcome.

export type MessageStatus = 'sent' | 'error' | 'warning';

export interface MessageButton {
  type: 'primary' | 'secondary';
  content: string;
  resultContent?: string;
  url?: string;
  target?: string;
}

export interface MessageCta {
  type?: 'redirect';
  data?: { url?: string; target?: string };
  action?: {
    status?: 'pending' | 'done';
    buttons?: MessageButton[];
    result?: { payload?: Record<string, unknown>; type?: 'primary' | 'secondary' };
  };
}

/**
 * Engagement the service tracks itself (lib/engagement, docs/engagement.md): when the message was
 * first opened (email's pixel) and first clicked, each set once and never changed; how many
 * clicks, and when the latest was. Absent until they happen.
 */
export interface MessageEngagement {
  opened?: string;
  clicked?: string;
  clickCount?: number;
  lastClickedAt?: string;
  /** The original URL of the latest click's link. */
  lastClickedUrl?: string;
  /** The original URLs of the links that were tracked (a click's token names one by its index). */
  links?: string[];
}

export interface StoredMessage extends MessageEngagement {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  _notificationId: string;
  /** Internal and external id of the subscriber. */
  _subscriberId: string;
  subscriberId: string;
  /** Workflow database id and trigger identifier; the step's database id and author's id. */
  _templateId: string;
  templateIdentifier: string;
  _messageTemplateId: string;
  stepId: string;
  _jobId: string;
  transactionId: string;
  channel: Channel;
  providerId: string;
  content: string;
  subject?: string;
  title?: string;
  avatar?: string;
  data?: Record<string, unknown>;
  cta: MessageCta;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  tags: string[];
  severity: Severity;
  critical: boolean;
  contextKeys: string[];
  status: MessageStatus;
  errorId?: string;
  errorText?: string;
  read: boolean;
  seen: boolean;
  archived: boolean;
  lastReadDate?: string;
  lastSeenDate?: string;
  /** When the subscriber first saw it (never changes once set). */
  firstSeenDate?: string;
  archivedAt?: string;
  /** One entry per delivery: the first, then one each time a snooze ends. */
  deliveredAt: string[];
  /** Set while snoozed: when the message comes back. */
  snoozedUntil?: string;
  /** The workflow's name when the message was made (the inbox shows it). */
  workflowName?: string;
  /** Bumped by every change of its state; each change is conditioned on the one it read. */
  stateVersion?: number;
  email?: string;
  phone?: string;
  directWebhookUrl?: string;
  deviceTokens?: string[];
  /** The provider's id of the sent message. */
  identifier?: string;
  /**
   * Email and sms: what the provider's latest delivery receipt said (lib/receipts), in the
   * reference's status words (`delivered`, `opened`, `bounced`, `undelivered`, ...), and when.
   */
  deliveryStatus?: string;
  deliveryStatusAt?: string;
  _feedId: string | null;
  actor?: { type: 'user' | 'none'; data?: string | null };
  _actorId?: string;
  createdAt: string;
  updatedAt: string;
}
