import { webhookChat } from './webhook-chat.ts';

// Ryver incoming webhook (the subscriber's webhookUrl, …/application/webhook/<id>): POST
// {body}, Markdown allowed; a display name or avatar through overrides (`createSource`). Ryver
// names no message in its answer.
export const ryver = webhookChat({
  id: 'ryver',
  name: 'Ryver',
  message: (d) => ({ body: d.content }),
});
