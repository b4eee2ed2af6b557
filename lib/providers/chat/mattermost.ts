import { webhookChat } from './webhook-chat.ts';

// Mattermost incoming webhook: POST {text}, and {channel} when the subscriber named one (the
// webhook's own channel otherwise).
export const mattermost = webhookChat({
  id: 'mattermost',
  name: 'Mattermost',
  message: (d) => ({ text: d.content, ...(d.channelCredentials?.channel && { channel: d.channelCredentials.channel }) }),
  idOf: (answer) => answer.headers.get('x-request-id'),
});
