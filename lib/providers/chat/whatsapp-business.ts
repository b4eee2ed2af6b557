import { baseUrlOf } from '../base-url.ts';
import { isPlainObject } from '../deep-merge.ts';
import { webhookChat } from './webhook-chat.ts';

// WhatsApp Business Cloud API: POST /<version>/<phone number id>/messages with the access token;
// `delivery.to` is the subscriber's phone. Free text only reaches someone who wrote in the last
// 24 hours, so an override `template` ({name, language, components}) sends a template instead.
const GRAPH_VERSION = 'v22.0';

export const whatsappBusiness = webhookChat({
  id: 'whatsapp-business',
  name: 'WhatsApp Business',
  message: (d) => {
    const template = d.overrides?.template;
    const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: d.to };
    return isPlainObject(template)
      ? { ...base, type: 'template' }
      : { ...base, type: 'text', text: { preview_url: false, body: d.content } };
  },
  request: (d, message) => {
    const c = d.integration.credentials as Record<string, unknown>;
    const base = baseUrlOf('whatsapp-business', c, 'https://graph.facebook.com');
    return {
      url: `${base}/${GRAPH_VERSION}/${encodeURIComponent(String(c.phoneNumberIdentification ?? ''))}/messages`,
      headers: { authorization: `Bearer ${String(c.apiToken ?? '')}` },
      json: message,
    };
  },
  idOf: (answer) => (answer.body as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id,
});
