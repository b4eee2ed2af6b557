import { webhookChat } from './webhook-chat.ts';

// Zulip's Slack-compatible incoming webhook (…/api/v1/external/slack_incoming?api_key=…&stream=…):
// POST {text}.
export const zulip = webhookChat({
  id: 'zulip',
  name: 'Zulip',
  message: (d) => ({ text: d.content }),
  idOf: (answer) => (answer.body as { id?: unknown } | undefined)?.id,
});
