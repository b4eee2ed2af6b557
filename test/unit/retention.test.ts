import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '#lib/ids.ts';
import { isExpired, oldestKeptId, retentionDays, ttlOf } from '#lib/store/retention.ts';

// The one decision of what has expired: the ttl written and the bound reads use agree, to the
// second, and the settings fall back as documented (docs/deploy.md, "Retention").

const DAY = 86_400_000;
afterEach(() => {
  delete process.env.ACTIVITY_RETENTION_DAYS;
  delete process.env.MESSAGE_RETENTION_DAYS;
});

describe('retention', () => {
  it('keeps 30 days by default, messages as long as the activity unless set, and ignores settings that are no number of days', () => {
    expect(retentionDays('activity')).toBe(30);
    expect(retentionDays('message')).toBe(30);
    process.env.ACTIVITY_RETENTION_DAYS = '7';
    expect(retentionDays('message')).toBe(7);
    process.env.MESSAGE_RETENTION_DAYS = '365';
    expect([retentionDays('activity'), retentionDays('message')]).toEqual([7, 365]);
    for (const bad of ['0', '-3', 'soon', '']) {
      process.env.MESSAGE_RETENTION_DAYS = bad;
      expect(retentionDays('message')).toBe(7);
    }
  });

  it('calls an item expired exactly when DynamoDB may delete it: once its ttl has passed', () => {
    const created = Date.UTC(2026, 0, 1, 12, 0, 0);
    const id = newId(created);
    const { ttl } = ttlOf('message', id);
    expect(ttl).toBe(created / 1000 + 30 * 86_400);
    expect(isExpired('message', id, new Date(ttl * 1000 - 1000))).toBe(false);
    expect(isExpired('message', id, new Date(ttl * 1000))).toBe(false);
    expect(isExpired('message', id, new Date(ttl * 1000 + 1000))).toBe(true);
    // The bound is a prefix of ids: every id of the second it names, and later, is kept.
    const now = new Date(created + 30 * DAY + 1000);
    expect(oldestKeptId('message', now)).toBe(newId(created + 1000).slice(0, 8));
  });
});
