import { randomUUID } from 'node:crypto';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';
import { smsMessage } from './message.ts';

// Kannel, the customer's own SMS gateway: its sendbox's `GET /cgi-bin/sendsms` on host:port
// (http unless the host names its scheme), the send-sms user and password in the query. It
// answers 202 `0: Accepted for delivery` and errors with 4xx/5xx text, but gives no message id:
// the id kept is one of ours, as the reference keeps its own. Kannel has no call that checks a
// send-sms user without sending.

const NAME = 'Kannel';

function sendsmsUrl(c: Record<string, unknown>): string {
  const host = String(c.host ?? '')
    .trim()
    .replace(/\/+$/, '');
  const origin = /^https?:\/\//i.test(host) ? host : `http://${host}`;
  return `${origin}:${String(c.port ?? '').trim()}/cgi-bin/sendsms`;
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const query: Record<string, string> = { from: sms.from ?? '', to: sms.to, text: sms.content };
  if (typeof c.user === 'string' && c.user !== '') query.username = c.user;
  if (typeof c.password === 'string' && c.password !== '') query.password = c.password;
  const request = withProviderData({ method: 'GET', url: sendsmsUrl(c), query }, delivery.providerData);
  const answer = await callProvider(NAME, request);
  return delivered(NAME, randomUUID(), { status: answer.status, body: answer.body });
}

export const kannelProvider: DeliveryProvider = { send };
