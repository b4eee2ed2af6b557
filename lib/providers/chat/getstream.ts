import { webhookChat } from './webhook-chat.ts';

// GetStream, as the reference has it: POST {text} to the subscriber's webhookUrl with the
// integration's API key in the X-API-KEY header; the answer's X-WEBHOOK-ID names the delivery.
export const getstream = webhookChat({
  id: 'getstream',
  name: 'GetStream',
  message: (d) => ({ text: d.content }),
  request: (d, message) => ({ url: d.to, headers: { 'x-api-key': String(d.integration.credentials.apiKey ?? '') }, json: message }),
  idOf: (answer) => answer.headers.get('x-webhook-id'),
});
