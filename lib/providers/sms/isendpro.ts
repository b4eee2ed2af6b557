import { randomUUID } from 'node:crypto';
import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData, type ProviderAnswer } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// iSendPro REST API: JSON POST with the API key (`keyid`) in the body; the sender (`emetteur`) is
// optional. It answers `etat.etat[0]` with a return code, 0 meaning sent, and its label, but no
// message id: the id kept is one of ours.

const NAME = 'iSendPro';
const base = (c: Record<string, unknown>) => baseUrlOf('isendpro-sms', c, 'https://apirest.isendpro.com');

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${base(c)}/cgi-bin/sms`,
      json: { keyid: String(c.apiKey ?? ''), num: sms.to, sms: sms.content, ...(sms.from && { emetteur: sms.from }) },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  if (valueAt(answer.body, 'etat.etat.0') === undefined) throw refused(NAME, undefined, answer);
  accepted(answer);
  return delivered(NAME, randomUUID(), answer.body);
}

/** A return code other than 0 in `etat.etat[0]` is iSendPro's refusal, with its label. */
function accepted(answer: ProviderAnswer): void {
  const state = valueAt(answer.body, 'etat.etat.0');
  const code = valueAt(state, 'code');
  if (code !== undefined && String(code) !== '0') throw refused(NAME, `${String(code)} ${String(valueAt(state, 'message') ?? '')}`, answer);
}

/** Reads the account's credit: nothing is sent. */
export async function checkIsendproConnection(integration: ConnectionTarget): Promise<void> {
  accepted(
    await checkCall(NAME, {
      url: `${base(integration.credentials)}/cgi-bin/credit`,
      query: { keyid: String(integration.credentials.apiKey ?? ''), credit: '1' },
    }),
  );
}

export const isendproProvider: DeliveryProvider = { send };
