import { CHANNELS, CHANNELS_WITH_PRIMARY, type Channel } from '../../../../lib/integrations/catalogue.ts';

// The channels in the order the views list them, with the words a person reads.

export const CHANNEL_LABELS: Record<Channel, string> = {
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
};

export { CHANNELS, type Channel };

export const isChannel = (value: string | null): value is Channel => CHANNELS.includes(value as Channel);

/** Only email and SMS have a primary integration (the API refuses set-primary elsewhere). */
export const hasPrimary = (channel: Channel): boolean => CHANNELS_WITH_PRIMARY.includes(channel);
