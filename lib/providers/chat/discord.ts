import { webhookChat } from './webhook-chat.ts';

// Discord webhook: POST {content}; `wait=true` makes Discord answer with the created message.
export const discord = webhookChat({
  id: 'discord',
  name: 'Discord',
  message: (d) => ({ content: d.content }),
  request: (d, message) => ({ url: d.to, query: { wait: 'true' }, json: message }),
  idOf: (answer) => (answer.body as { id?: unknown } | undefined)?.id,
});
