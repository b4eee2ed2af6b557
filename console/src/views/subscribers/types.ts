// The fields of the API's subscriber bodies these views read (GET /v2/subscribers and below).

export interface Subscriber {
  _id: string;
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  locale?: string | null;
  timezone?: string | null;
  data?: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export type ChannelFlags = Partial<Record<Channel, boolean>>;

export interface Preferences {
  global: { enabled: boolean; channels: ChannelFlags };
  workflows: { enabled: boolean; channels: ChannelFlags; workflow: { identifier: string; name: string } }[];
}

export interface TopicSubscription {
  _id: string;
  createdAt: string;
  topic: { _id: string; key: string; name?: string };
}

export const fullName = (s: Pick<Subscriber, 'firstName' | 'lastName'>): string => [s.firstName, s.lastName].filter(Boolean).join(' ');
