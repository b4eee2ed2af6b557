import { baseUrlOf } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { InvalidTokenError } from './invalid-token.ts';

// Expo push service: POST /--/api/v2/push/send with the access token, a list of one message
// {to, title, body, data}; overrides merge into it (sound, badge, channelId, priority...). Expo
// answers 200 with one ticket per message, and a ticket can still be an error.

export const expo: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const token = String(c.apiKey ?? '');
    const { title, body, data } = pushContent(delivery);
    const message = deepMerge(
      { to: delivery.to, ...(title && { title }), body, ...(Object.keys(data).length > 0 && { data }) },
      messageOverrides(delivery),
    );
    const url = `${baseUrlOf('expo', c, 'https://exp.host')}/--/api/v2/push/send`;
    const answer = await callProvider(
      'Expo',
      withProviderData({ url, headers: { ...(token && { authorization: `Bearer ${token}` }) }, json: message }, delivery.providerData),
    );
    const raw = { status: answer.status, body: answer.body };
    const ticketData = objectOr(answer.body).data;
    const ticket = objectOr(Array.isArray(ticketData) ? ticketData[0] : ticketData);
    if (ticket.status === 'ok' && typeof ticket.id === 'string') return { id: ticket.id, raw };
    const reason = objectOr(ticket.details).error;
    const text = `Expo refused the message${typeof ticket.message === 'string' ? `: ${ticket.message}` : ''}`;
    if (reason === 'DeviceNotRegistered') throw new InvalidTokenError(text, raw, delivery.to);
    throw new ProviderError(text, raw);
  },
};
