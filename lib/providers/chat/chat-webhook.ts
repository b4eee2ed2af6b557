import { signedJson } from '../webhook-signature.ts';
import { webhookChat } from './webhook-chat.ts';

// Generic chat webhook: POST {content, channel?} as JSON to the subscriber's URL; when the
// integration has a secret (`secretKey`) the body is signed (see webhook-signature.ts).
export const chatWebhook = webhookChat({
  id: 'chat-webhook',
  name: 'Chat webhook',
  message: (d) => ({ content: d.content, ...(d.channelCredentials?.channel && { channel: d.channelCredentials.channel }) }),
  finish: (d, request) => {
    const secret = (d.integration.credentials as Record<string, unknown>).secretKey;
    return signedJson(request, typeof secret === 'string' && secret ? secret : undefined);
  },
  idOf: (answer) => (answer.body as { id?: unknown } | undefined)?.id ?? answer.headers.get('x-message-id'),
});
