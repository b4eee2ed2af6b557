import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '#lib/messages/model.ts';
import type { Receipt } from '#lib/receipts/model.ts';
import { detailStatusOf, messageAfter } from '#lib/receipts/statuses.ts';

// How a receipt reads (the reference's detail statuses) and how it moves a message: only
// forward, a failure staying a failure.

const message = (fields: Partial<StoredMessage> = {}) =>
  ({ _id: 'm1', channel: 'email', status: 'sent', updatedAt: '2026-01-01T00:00:00.000Z', ...fields }) as StoredMessage;
const receipt = (status: string, response?: string): Receipt => ({
  eventId: `e-${status}`,
  identifier: 'p1',
  status,
  vendorStatus: status,
  date: '2026-01-02T00:00:00.000Z',
  raw: {},
  ...(response && { response }),
});
const now = new Date('2026-01-03T00:00:00.000Z');

describe('receipt statuses', () => {
  it('maps statuses to the reference detail statuses per channel', () => {
    expect(['opened', 'sent', 'delivered', 'clicked'].map((s) => detailStatusOf('email', s))).toEqual([
      'Success',
      'Success',
      'Success',
      'Success',
    ]);
    expect(['rejected', 'bounced', 'dropped', 'blocked', 'spam', 'unsubscribed'].map((s) => detailStatusOf('email', s))).toEqual(
      Array(6).fill('Failed'),
    );
    expect(detailStatusOf('email', 'deferred')).toBe('Pending');
    expect(
      ['delivered', 'accepted', 'sent', 'created', 'sending', 'queued', 'failed', 'undelivered'].map((s) => detailStatusOf('sms', s)),
    ).toEqual(['Success', 'Success', 'Success', 'Pending', 'Pending', 'Queued', 'Failed', 'Failed']);
  });

  it('moves the delivery state forward only', () => {
    expect(messageAfter(message(), receipt('delivered'), now)).toMatchObject({
      deliveryStatus: 'delivered',
      deliveryStatusAt: '2026-01-02T00:00:00.000Z',
      updatedAt: now.toISOString(),
      status: 'sent',
    });
    expect(messageAfter(message({ deliveryStatus: 'opened' }), receipt('delivered'), now)).toBeUndefined();
    expect(messageAfter(message({ deliveryStatus: 'delivered' }), receipt('delivered'), now)).toBeUndefined();
    expect(messageAfter(message({ deliveryStatus: 'delivered' }), receipt('clicked'), now)).toMatchObject({ deliveryStatus: 'clicked' });
  });

  it('fails the message on a bounce, and a failure stays', () => {
    expect(messageAfter(message({ deliveryStatus: 'sent' }), receipt('bounced', '550 user unknown'), now)).toMatchObject({
      status: 'error',
      errorId: 'provider_bounced',
      errorText: '550 user unknown',
      deliveryStatus: 'bounced',
    });
    expect(messageAfter(message({ deliveryStatus: 'bounced', status: 'error' }), receipt('delivered'), now)).toBeUndefined();
    expect(messageAfter(message(), receipt('undelivered'), now)?.errorText).toBe('The provider reported the message undelivered');
  });
});
