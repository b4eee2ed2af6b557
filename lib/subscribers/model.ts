// A subscriber as stored and as the API shows it (its Subscriber shape), and as a trigger
// defines one.

/** The profile fields (profile-fields.ts), as stored and as a trigger gives them. */
export interface SubscriberProfile {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  locale?: string | null;
  timezone?: string | null;
  data?: Record<string, unknown> | null;
}

/** A subscriber as a trigger names it: an id, or a definition to create or update. */
export interface SubscriberDefinition extends SubscriberProfile {
  subscriberId: string;
  channels?: {
    providerId: string;
    integrationIdentifier?: string;
    credentials: { webhookUrl?: string; deviceTokens?: string[]; [k: string]: unknown };
  }[];
}

export interface ChannelSettings {
  providerId: string;
  integrationIdentifier?: string;
  credentials: {
    webhookUrl?: string;
    channel?: string;
    deviceTokens?: string[];
    alertUid?: string;
    title?: string;
    imageUrl?: string;
    state?: string;
    externalUrl?: string;
  };
  _integrationId: string;
}

export interface Subscriber extends SubscriberProfile {
  /** Internal id; differs from subscriberId. */
  _id: string;
  _organizationId: string;
  _environmentId: string;
  /** The client's own id of the subscriber. */
  subscriberId: string;
  channels?: ChannelSettings[];
  isOnline?: boolean | null;
  lastOnlineAt?: string | null;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  __v?: number;
}
