import { describe, expect, it } from 'vitest';
import { activityFilter } from '#lib/activity/filters.ts';
import { idOf, newId } from '#lib/ids.ts';
import { notificationShardsFor } from '#lib/pipeline/trigger-store.ts';
import { ACTIVITY_DAY_SHARDS, keys, MAX_UNSHARDED_RECIPIENTS, MESSAGE_LIST_SHARDS, shardOf, TRANSACTION_SHARDS } from '#lib/store/keys.ts';
import { filterOf } from '#lib/messages/repository.ts';
import { ACTIVITY_INDEX_ATTRIBUTES, MESSAGE_INDEX_ATTRIBUTES, TABLE } from '#lib/store/table.ts';

// Facts the reads rely on that no single query shows: what the activity and message indexes hold,
// and which items a subscriber's profile-and-preferences range takes.

const scope = { organizationId: 'o1', environmentId: 'e1' };

describe('the activity indexes', () => {
  it('hold every attribute the activity filters read', () => {
    const window = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') };
    const filter = activityFilter(
      {
        page: 0,
        limit: 10,
        channels: ['in_app'],
        templates: ['t'],
        severity: ['none'],
        topicKey: 'news',
        contextKeys: ['team:blue'],
      } as Parameters<typeof activityFilter>[0],
      window,
      { subscriberIds: ['s1'] },
    );
    const read = Object.values(filter.ExpressionAttributeNames ?? {});
    expect(read.length).toBeGreaterThan(5);
    for (const name of ['gsi3', 'gsi4'] as const) {
      const index = TABLE.indexes.find((i) => i.name === name)!;
      expect(index.projection).toEqual(ACTIVITY_INDEX_ATTRIBUTES);
      for (const attribute of [...read, '_id']) expect(ACTIVITY_INDEX_ATTRIBUTES).toContain(attribute);
    }
  });

  it('are the keys notifications are written under', () => {
    expect(Object.keys(keys.activityDayIndex(scope, '2026-01-01', 'n1'))).toEqual(['gsi3pk', 'gsi3sk']);
    expect(Object.keys(keys.activityOfSubscriberIndex(scope, 's1', 'n1'))).toEqual(['gsi4pk', 'gsi4sk']);
  });
});

describe('the message indexes', () => {
  it('hold every attribute the message lists filter on', () => {
    const filter = filterOf({
      channel: 'in_app',
      transactionIds: ['t1'],
      read: false,
      seen: false,
      feedIds: ['f1'],
      payload: [{ path: ['author'], value: 'Bob' }],
    });
    // Payload conditions name the payload's own keys after `payload`; the index holds payload whole.
    const read = Object.values(filter.ExpressionAttributeNames ?? {}).filter((name) => name !== 'author');
    expect(read).toEqual(expect.arrayContaining(['channel', 'transactionId', 'read', 'seen', '_feedId', 'payload']));
    for (const name of ['gsi5', 'gsi6'] as const) {
      const index = TABLE.indexes.find((i) => i.name === name)!;
      expect(index.projection).toEqual(MESSAGE_INDEX_ATTRIBUTES);
      for (const attribute of [...read, '_id']) expect(MESSAGE_INDEX_ATTRIBUTES).toContain(attribute);
    }
  });

  it('are the keys messages are written under', () => {
    expect(Object.keys(keys.messageListIndex(scope, 'm1'))).toEqual(['gsi5pk', 'gsi5sk']);
    expect(Object.keys(keys.unseenMessageIndex(scope, 's1', 'm1'))).toEqual(['gsi6pk', 'gsi6sk']);
  });
});

describe("a subscriber's profile and preferences range", () => {
  const range = keys.subscriberProfileAndPreferences(scope, 's1');
  const inRange = (k: { pk: string; sk: string }) => k.pk === range.pk && k.sk >= range.skFrom && k.sk <= range.skTo;

  it('takes the profile and every preference item', () => {
    expect(keys.subscriber(scope, 's1').sk).toBe(range.skTo);
    for (const k of [
      keys.subscriber(scope, 's1'),
      keys.subscriberGlobalPreference(scope, 's1'),
      keys.subscriberWorkflowPreference(scope, 's1', 'ffffffffffffffffffffffff'),
    ]) {
      expect(inRange(k), k.sk).toBe(true);
    }
  });

  it('takes nothing else of the partition', () => {
    for (const k of [
      keys.message(scope, 's1', '000000000000000000000000'),
      keys.message(scope, 's1', 'ffffffffffffffffffffffff'),
      keys.subscriptionCount(scope, 's1'),
    ]) {
      expect(k.pk).toBe(range.pk);
      expect(inRange(k), k.sk).toBe(false);
    }
  });
});

describe('write shards (keys that one large fan-out would make hot)', () => {
  // FNV-1a over UTF-16 code units with murmur3's finalizer, as computed independently.
  const PINNED_64 = [11, 51, 30, 10, 55];
  const PINNED_8 = [2, 4];
  const PINNED_16 = [2, 12];
  const env = 'ORG#o1#ENV#e1';
  const sample = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));
  /** How many of `values` fall in each shard. */
  const counts = (values: string[], shards: number) => {
    const found = new Array<number>(shards).fill(0);
    for (const value of values) found[shardOf(value, shards)]! += 1;
    return found;
  };

  it('hashes stably: the shard is part of stored keys, so these values must never change', () => {
    expect([shardOf('', 64), shardOf('a', 64), shardOf('subscriber-1', 64), shardOf('subscriber-2', 64), shardOf('ünïcødé ✓', 64)]).toEqual(
      PINNED_64,
    );
    expect(['66b1c0e9000a1b2c3d4e5f60', '66b1c0e9000a1b2c3d4e5f61'].map((id) => shardOf(id, 8))).toEqual(PINNED_8);
    expect(['66b1c0e9000a1b2c3d4e5f60', '66b1c0e9000a1b2c3d4e5f61'].map((id) => shardOf(id, 16))).toEqual(PINNED_16);
    for (const value of ['a', 'b', 'subscriber-1']) expect(shardOf(value, 64)).toBe(shardOf(value, 64));
  });

  it('puts everything in shard 0 when there is one shard', () => {
    for (const value of ['', 'a', 'subscriber-1']) expect(shardOf(value, 1)).toBe(0);
  });

  it('spreads subscriberIds and time-ordered ids evenly', () => {
    // Sequential subscriberIds (as apps number them), random-looking ones, and ids made one
    // after the other (time first, a counter last), as notifications and messages get them.
    const samples = {
      sequential: sample(64_000, (i) => `user-${i}`),
      emails: sample(64_000, (i) => `person.${i * 7919}@example.com`),
      ids: sample(64_000, () => newId()),
      idsOf: sample(64_000, (i) => idOf(`e1:txn:${i}`, 1_760_000_000_000 + i)),
    };
    for (const [name, values] of Object.entries(samples)) {
      for (const shards of [TRANSACTION_SHARDS, ACTIVITY_DAY_SHARDS, MESSAGE_LIST_SHARDS]) {
        const mean = values.length / shards;
        const found = counts(values, shards);
        // A fair hash gives each shard mean ± sqrt(mean) (1,000 ± 32 with 64 shards): allow 5 sd.
        for (const count of found)
          expect(Math.abs(count - mean), `${name} over ${shards}: ${found.join(',')}`).toBeLessThan(5 * Math.sqrt(mean));
      }
    }
  });

  it('keeps a one-partition transaction under its key from before sharding; shard 0 of any is that key', () => {
    const n = keys.notification(scope, 'txn-1', 's1', 1);
    expect(n).toEqual({ pk: `${env}#TXN#txn-1`, sk: 'NOTIF#s1' });
    expect(keys.notificationsOfTransaction(scope, 'txn-1', 1)).toEqual([{ pk: `${env}#TXN#txn-1`, skPrefix: 'NOTIF#' }]);
    const shards = keys.notificationsOfTransaction(scope, 'txn-1', TRANSACTION_SHARDS);
    expect(shards).toHaveLength(TRANSACTION_SHARDS);
    expect(shards[0]!.pk).toBe(keys.triggerEvent(scope, 'txn-1').pk);
    expect(new Set(shards.map((s) => s.pk)).size).toBe(TRANSACTION_SHARDS);
    const subscribers = sample(500, (i) => `s${i}`);
    const used = new Set(subscribers.map((id) => keys.notification(scope, 'txn-1', id, TRANSACTION_SHARDS).pk));
    for (const pk of used) expect(shards.map((s) => s.pk)).toContain(pk);
    expect(used.size).toBe(TRANSACTION_SHARDS);
  });

  it("never gives two transactions a common partition, whatever '#' their ids hold", () => {
    const ids = ['a', 'a#1', '1#a', 'a#01', 'TXN1#a', '#', '1'];
    const partitions = ids.map((id) => new Set(keys.notificationsOfTransaction(scope, id, TRANSACTION_SHARDS).map((s) => s.pk)));
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++)
        for (const pk of partitions[i]!) expect(partitions[j]!.has(pk), `${ids[i]} / ${ids[j]}: ${pk}`).toBe(false);
    }
  });

  it("spreads a day's activity over its shards, shard 0 being the day's key from before sharding", () => {
    const day = keys.activityDay(scope, '2026-01-01');
    expect(day).toHaveLength(ACTIVITY_DAY_SHARDS);
    expect(day[0]).toEqual({ gsi3pk: `${env}#ACT#2026-01-01` });
    expect(new Set(day.map((d) => d.gsi3pk)).size).toBe(ACTIVITY_DAY_SHARDS);
    const ids = sample(200, () => newId());
    for (const id of ids) {
      const index = keys.activityDayIndex(scope, '2026-01-01', id);
      expect(day.map((d) => d.gsi3pk)).toContain(index.gsi3pk);
      const lookup = keys.activityDayLookup(scope, '2026-01-01', id);
      // Its own shard first, then shard 0, where entries written before sharding are.
      expect(lookup[0]).toEqual(index);
      expect(lookup.at(-1)).toEqual({ gsi3pk: day[0]!.gsi3pk, gsi3sk: id });
      expect(lookup).toHaveLength(index.gsi3pk === day[0]!.gsi3pk ? 1 : 2);
    }
  });

  it("spreads the environment's message list over its shards, shard 0 being the key from before sharding", () => {
    const list = keys.messagesOfEnvironment(scope);
    expect(list).toHaveLength(MESSAGE_LIST_SHARDS);
    expect(list[0]).toEqual({ gsi5pk: `${env}#MSGS` });
    expect(new Set(list.map((d) => d.gsi5pk)).size).toBe(MESSAGE_LIST_SHARDS);
    for (const id of sample(200, () => newId())) {
      const index = keys.messageListIndex(scope, id);
      expect(list.map((d) => d.gsi5pk)).toContain(index.gsi5pk);
      const lookup = keys.messageListLookup(scope, id);
      expect(lookup[0]).toEqual(index);
      expect(lookup.at(-1)).toEqual({ gsi5pk: list[0]!.gsi5pk, gsi5sk: id });
      expect(lookup).toHaveLength(index.gsi5pk === list[0]!.gsi5pk ? 1 : 2);
    }
  });

  it('shards the notifications of a topic, a broadcast or many recipients, not of a few', () => {
    const few = sample(MAX_UNSHARDED_RECIPIENTS, (i) => `s${i}`);
    expect(notificationShardsFor(few, false)).toBe(1);
    expect(notificationShardsFor([...few, 'one-more'], false)).toBe(TRANSACTION_SHARDS);
    expect(notificationShardsFor(['s1', { type: 'Topic', topicKey: 'news' }], false)).toBe(TRANSACTION_SHARDS);
    expect(notificationShardsFor([], true)).toBe(TRANSACTION_SHARDS);
  });
});
