import { isPlainObject } from '../deep-merge.ts';
import { webhookChat } from './webhook-chat.ts';

// Microsoft Teams webhook (a Workflows "when a webhook request is received" flow, or a legacy
// incoming-webhook connector): both take a message with an Adaptive Card attachment, so plain
// text goes in a card. A body that is itself a JSON object (an author's own card) is sent as is.
export const msteams = webhookChat({
  id: 'msteams',
  name: 'Microsoft Teams',
  message: (d) =>
    ownCard(d.content) ?? {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [{ type: 'TextBlock', text: d.content, wrap: true }],
          },
        },
      ],
    },
  idOf: (answer) => answer.headers.get('request-id') ?? answer.headers.get('x-ms-request-id'),
});

function ownCard(content: string): Record<string, unknown> | undefined {
  if (!content.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
