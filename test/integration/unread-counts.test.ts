import { describe, expect, it } from 'vitest';
import { newId } from '#lib/ids.ts';
import { countUnread, countUnreadBySeverity } from '#lib/inbox/repository.ts';
import { SEVERITIES } from '#lib/inbox/counts.ts';
import { dynamo } from '#lib/store/client.ts';
import { batchPut } from '#lib/store/batch.ts';
import { keys } from '#lib/store/keys.ts';
import { countsBetween, meterRequests } from '../../bench/request-meter.ts';

// The unread counts by severity (lib/inbox/repository.ts) from one Query of the unread index,
// against DynamoDB Local: each severity's count is what its own Query answers (countUnread, the
// inbox's filtered count), capped alike, with entries past retention left out.

const meter = meterRequests(dynamo());
const MAX = 100;

/** A subscriber's unread index entries: `n` of each severity, `expired` more of each past retention. */
async function seedInbox(n: Record<string, number>, expired = 0) {
  const scope = { organizationId: newId(), environmentId: newId() };
  const subscriberId = `sub-${newId()}`;
  const ctx = '';
  const items = Object.entries(n).flatMap(([severity, count], s) =>
    [
      ...Array.from({ length: count }, (_, i) => newId(Date.now() - i * 1000)),
      ...Array.from({ length: expired }, (_, i) => `00000001${s}${String(i).padStart(15, '0')}`),
    ].map((id) => ({
      ...keys.message(scope, subscriberId, id),
      ...keys.unreadInboxIndex(scope, subscriberId, ctx, severity, id),
    })),
  );
  await batchPut(items);
  return { scope, subscriberId, ctx };
}

async function bothWays(inbox: Awaited<ReturnType<typeof seedInbox>>) {
  const before = meter.snapshot();
  const counts = await countUnreadBySeverity(inbox.scope, inbox.subscriberId, inbox.ctx, SEVERITIES, MAX);
  const queries = countsBetween(before, meter.snapshot()).Query?.requests ?? 0;
  const oneByOne = Object.fromEntries(
    await Promise.all(SEVERITIES.map(async (s) => [s, await countUnread(inbox.scope, inbox.subscriberId, inbox.ctx, s, MAX)] as const)),
  );
  return { counts, oneByOne, queries };
}

describe('countUnreadBySeverity', () => {
  it('counts a small inbox in one Query, as one Query per severity does', async () => {
    const { counts, oneByOne, queries } = await bothWays(await seedInbox({ high: 3, low: 1, none: 40 }, 2));
    expect(counts).toEqual({ high: 3, medium: 0, low: 1, none: 40 });
    expect(counts).toEqual(oneByOne);
    expect(queries).toBe(1);
  });

  it('caps each severity at the maximum and still counts the ones after it', async () => {
    const inboxes: Record<string, number>[] = [
      { high: 130, low: 3, medium: 100, none: 101 },
      { high: 99, low: 2, medium: 1, none: 250 },
      { high: 60, low: 60, medium: 60 },
    ];
    for (const n of inboxes) {
      const { counts, oneByOne, queries } = await bothWays(await seedInbox(n, 3));
      expect(counts).toEqual(oneByOne);
      expect(queries).toBeLessThanOrEqual(SEVERITIES.length + 1);
    }
  });

  it('counts nothing in an empty inbox', async () => {
    const { counts, queries } = await bothWays(await seedInbox({}));
    expect(counts).toEqual({ high: 0, medium: 0, low: 0, none: 0 });
    expect(queries).toBe(1);
  });
});
