import { UnauthorizedError } from '../../errors.ts';
import type { ReceiptReader } from '../model.ts';
import { assertHmac, authToken, sortedParams } from './hmac.ts';

// Plivo's message status callbacks (the `url` of a send: trigger provider data `url` for
// Plivo): form-encoded, signed in `X-Plivo-Signature-V3`, the base64 HMAC-SHA256 under the
// account's auth token of the URL Plivo called, `?`, the parameters in
// name order (name then value), `.` and the request's `X-Plivo-Signature-V3-Nonce`, as Plivo's
// own validateV3Signature builds it. Several signatures (tokens being rotated) come
// comma-separated. No event id: (MessageUUID, Status) names one.

const STATUS: Record<string, string> = {
  queued: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  rejected: 'failed',
};

export const plivoReceipts: ReceiptReader = {
  async read({ integration, rawBody, headers, url }) {
    const token = authToken(integration.credentials, 'Plivo');
    const sent = headers['x-plivo-signature-v3'];
    const nonce = headers['x-plivo-signature-v3-nonce'];
    if (!sent || !nonce) throw new UnauthorizedError('Missing Plivo signature');
    const params = new URLSearchParams(rawBody);
    // The receipt URL has no query string; one added to it is not signed as Plivo signs it (401).
    const signed = `${url}?${sortedParams(params)}.${nonce}`;
    assertHmac(
      'sha256',
      token,
      signed,
      sent.split(',').map((s) => s.trim()),
      'base64',
      'Plivo',
    );

    const uuid = params.get('MessageUUID');
    const vendorStatus = params.get('Status') ?? '';
    const status = STATUS[vendorStatus];
    if (!uuid || !status) return [];
    const code = params.get('ErrorCode');
    return [
      {
        eventId: `${uuid}:${vendorStatus}`,
        identifier: uuid,
        status,
        vendorStatus,
        date: new Date().toISOString(),
        ...(code && code !== '000' && { response: `Plivo error ${code}` }),
        raw: Object.fromEntries(params),
      },
    ];
  },
};
