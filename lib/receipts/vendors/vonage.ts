import { createHash, createHmac } from 'node:crypto';
import { UnauthorizedError } from '../../errors.ts';
import type { ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';

// Vonage SMS API delivery receipts: form-encoded (or JSON) parameters. Signed when the account
// has signed webhooks on: `sig` over the other parameters sorted by name as `&name=value` (`&`
// and `=` in values read as `_`), either md5 of that plus the signature secret (`md5hash`) or
// its HMAC under the secret (md5, sha1, sha256, sha512), whichever the account chose; each needs
// the secret, so any that matches is Vonage's. With the secret set as the integration's
// inboundWebhookSigningKey an unsigned or wrongly signed receipt is refused; without it they are
// taken as the reference takes them. No event id: (messageId, status) names one.

const STATUS: Record<string, string> = {
  delivered: 'delivered',
  accepted: 'accepted',
  buffered: 'sending',
  expired: 'failed',
  failed: 'failed',
  rejected: 'failed',
};

function paramsOf(rawBody: string): Record<string, string> {
  const json = rawBody.trimStart().startsWith('{') ? parseJson(rawBody) : undefined;
  if (json && typeof json === 'object') return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
  return Object.fromEntries(new URLSearchParams(rawBody));
}

function signatures(params: Record<string, string>, secret: string): string[] {
  const signed = Object.keys(params)
    .filter((k) => k !== 'sig')
    .sort()
    .map((k) => `&${k}=${params[k]!.replace(/[&=]/g, '_')}`)
    .join('');
  return [
    createHash('md5')
      .update(signed + secret)
      .digest('hex'),
    ...(['md5', 'sha1', 'sha256', 'sha512'] as const).map((a) => createHmac(a, secret).update(signed).digest('hex')),
  ];
}

export const vonageReceipts: ReceiptReader = {
  async read({ integration, rawBody }) {
    const params = paramsOf(rawBody);
    const secret = integration.configurations?.inboundWebhookSigningKey;
    if (secret) {
      const sig = params.sig?.toLowerCase();
      if (!sig || !signatures(params, secret).includes(sig)) throw new UnauthorizedError('Missing or invalid Vonage signature');
    }
    const identifier = params.messageId;
    const vendorStatus = params.status ?? '';
    const status = STATUS[vendorStatus];
    if (!identifier || !status) return [];
    const code = params['err-code'];
    const at = params['message-timestamp'];
    return [
      {
        eventId: `${identifier}:${vendorStatus}`,
        identifier,
        status,
        vendorStatus,
        date: validDate(at && `${at.replace(' ', 'T')}Z`) ?? new Date().toISOString(),
        ...(code && code !== '0' && { response: `Vonage error ${code}` }),
        raw: params,
      },
    ];
  },
};
