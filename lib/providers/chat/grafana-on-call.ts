import type { Delivery } from '../provider.ts';
import { webhookChat } from './webhook-chat.ts';

// Grafana OnCall "formatted webhook": the alert fields come from the subscriber's channel
// credentials (alertUid, title, imageUrl, state, externalUrl), else from the integration's
// (alertUid, title, imageUrl, state, externalLink); the rendered body is the alert's message.
export const grafanaOnCall = webhookChat({
  id: 'grafana-on-call',
  name: 'Grafana OnCall',
  message: (d) => {
    const fields = {
      alert_uid: pick(d, 'alertUid'),
      title: pick(d, 'title'),
      image_url: pick(d, 'imageUrl'),
      state: pick(d, 'state'),
      link_to_upstream_details: pick(d, 'externalUrl', 'externalLink'),
      message: d.content,
    };
    return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  },
});

function pick(d: Delivery, subscriberKey: string, integrationKey = subscriberKey): string | undefined {
  const own = (d.channelCredentials as Record<string, unknown> | undefined)?.[subscriberKey];
  return text(own) ?? text((d.integration.credentials as Record<string, unknown>)[integrationKey]);
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
