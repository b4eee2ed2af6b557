import { describe, expect, it } from 'vitest';
import { activityFilter } from '#lib/activity/filters.ts';
import { keys } from '#lib/store/keys.ts';
import { filterOf } from '#lib/messages/repository.ts';
import { ACTIVITY_INDEX_ATTRIBUTES, MESSAGE_INDEX_ATTRIBUTES, TABLE } from '#lib/store/table.ts';

// Facts the reads rely on that no single query shows: what the activity and message indexes hold,
// and which items a subscriber's profile-and-preferences range takes.

const scope = { organizationId: 'o1', environmentId: 'e1' };

describe('the activity indexes', () => {
  it('hold every attribute the activity filters read', () => {
    const window = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') };
    const filter = activityFilter(
      { page: 0, limit: 10, channels: ['in_app'], templates: ['t'], severity: ['none'], topicKey: 'news', contextKeys: ['team:blue'] } as Parameters<typeof activityFilter>[0],
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
    const filter = filterOf({ channel: 'in_app', transactionIds: ['t1'], read: false, seen: false, feedIds: ['f1'], payload: [{ path: ['author'], value: 'Bob' }] });
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
    for (const k of [keys.subscriber(scope, 's1'), keys.subscriberGlobalPreference(scope, 's1'), keys.subscriberWorkflowPreference(scope, 's1', 'ffffffffffffffffffffffff')]) {
      expect(inRange(k), k.sk).toBe(true);
    }
  });

  it('takes nothing else of the partition', () => {
    for (const k of [keys.message(scope, 's1', '000000000000000000000000'), keys.message(scope, 's1', 'ffffffffffffffffffffffff'), keys.subscriptionCount(scope, 's1')]) {
      expect(k.pk).toBe(range.pk);
      expect(inRange(k), k.sk).toBe(false);
    }
  });
});
