import { webhookChat } from './webhook-chat.ts';

// Slack incoming webhook: POST {text} (blocks and the rest through overrides); Slack answers
// "ok" and names the request, not the message, in x-slack-req-id.
export const slack = webhookChat({
  id: 'slack',
  name: 'Slack',
  message: (d) => ({ text: d.content }),
  idOf: (answer) => answer.headers.get('x-slack-req-id'),
});
