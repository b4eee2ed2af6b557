import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { rand, settled, WAIT } from '../support/pipeline.ts';

// An app written against `@novu/node` 2.x, run unchanged but for `backendUrl`: the calls a
// typical integration makes, in the order it makes them, each read the way such an app reads
// the answer (`res.data.data`, the reference's envelope; pages at `res.data`). The per-area
// suites (subscribers-v1, v1-topics, v1-tenants, workflows-v1, v1-account) hold the details.

let api: LocalApi;
let env: TestEnv;
let novu: Novu;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  novu = new Novu(env.apiKey, { backendUrl: api.url });
});
afterAll(() => api.close());

/** The subscriber's in-app feed (newest first), once it holds `count` messages. */
async function feedOf(subscriberId: string, count: number): Promise<{ _id: string; content: string; read: boolean; seen: boolean }[]> {
  let items: { _id: string; content: string; read: boolean; seen: boolean }[] = [];
  await vi.waitFor(async () => {
    const feed = await novu.subscribers.getNotificationsFeed(subscriberId, {});
    items = feed.data.data;
    expect(items).toHaveLength(count);
  }, WAIT);
  return items;
}

describe('a typical @novu/node 2.x app against the local stack', () => {
  it(
    'identifies, updates, sets credentials, uses topics, tenants ' + 'and preferences, triggers, reads the feed, marks and deletes',
    async () => {
      // A workflow, authored through the v1 API in its group.
      const groupId = (await novu.notificationGroups.get()).data.data[0]._id;
      const name = `Comments ${rand()}`;
      const created = await novu.notificationTemplates.create({
        name,
        notificationGroupId: groupId,
        active: true,
        steps: [{ template: { type: 'in_app', content: 'Hello {{subscriber.firstName}}: {{comment}}' } }],
      } as never);
      const workflow = created.data.data;
      const identifier: string = workflow.triggers[0].identifier;

      // Subscribers: identify (create), identify again (update), update, chat credentials.
      const ada = `ada-${rand()}`;
      const bob = `bob-${rand()}`;
      expect((await novu.subscribers.identify(ada, { firstName: 'Ada', email: 'ada@example.com' })).data.data).toMatchObject({
        subscriberId: ada,
        firstName: 'Ada',
      });
      await novu.subscribers.identify(bob, { firstName: 'Bob' });
      await novu.subscribers.identify(ada, { lastName: 'Lovelace' });
      await novu.subscribers.update(ada, { locale: 'en' });
      await novu.integrations.create('discord', { channel: 'chat' as never, active: true, identifier: `discord-${rand()}` });
      await novu.subscribers.setCredentials(ada, 'discord', { webhookUrl: 'https://discord.example/hooks/1' });
      const profile = (await novu.subscribers.get(ada)).data.data;
      expect(profile).toMatchObject({ subscriberId: ada, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', locale: 'en' });
      expect(profile.channels).toEqual([
        expect.objectContaining({
          providerId: 'discord',
          credentials: expect.objectContaining({ webhookUrl: 'https://discord.example/hooks/1' }),
        }),
      ]);

      // A topic of both, a tenant.
      const topicKey = `team-${rand()}`;
      await novu.topics.create({ key: topicKey, name: 'Team' });
      const added = (await novu.topics.addSubscribers(topicKey, { subscribers: [ada, bob, `nobody-${rand()}`] })).data.data;
      expect(added.succeeded.sort()).toEqual([ada, bob].sort());
      expect(added.failed.notFound).toHaveLength(1);
      const tenant = `acme-${rand()}`;
      await novu.tenants.create(tenant, { name: 'Acme', data: { plan: 'pro' } });
      expect((await novu.tenants.get(tenant)).data.data).toMatchObject({ identifier: tenant, name: 'Acme' });

      // Bob switches this workflow's in-app channel off.
      const preference = (
        await novu.subscribers.updatePreference(bob, workflow._id, { channel: { type: 'in_app' as never, enabled: false } })
      ).data.data;
      expect(preference.preference.channels.in_app).toBe(false);

      // A trigger to Ada (for the tenant), then one to the topic.
      const direct = (await novu.trigger(identifier, { to: { subscriberId: ada }, payload: { comment: 'first' }, tenant })).data.data;
      expect(direct).toMatchObject({ acknowledged: true, status: 'processed' });
      await settled(env.client, direct.transactionId);
      const toTopic = (await novu.trigger(identifier, { to: [{ type: 'Topic' as never, topicKey }], payload: { comment: 'second' } })).data
        .data;
      expect(toTopic).toMatchObject({ acknowledged: true, status: 'processed' });
      // One notification per subscriber of the topic.
      await settled(env.client, toTopic.transactionId, 2);

      const feed = await feedOf(ada, 2);
      expect(feed.map((m) => m.content)).toEqual(['Hello Ada: second', 'Hello Ada: first']);
      // Bob's preference held: nothing reached his inbox.
      expect((await novu.subscribers.getNotificationsFeed(bob, {})).data.data).toEqual([]);

      // Marks: one read, the count of unseen follows; then all seen.
      expect((await novu.subscribers.getUnseenCount(ada, false)).data.data.count).toBe(2);
      const [newest] = (await novu.subscribers.markMessageRead(ada, feed[0]!._id)).data.data;
      expect(newest).toMatchObject({ _id: feed[0]!._id, read: true });
      // Read is not seen (the reference's markAs sets just the flags sent): both are still unseen.
      expect((await novu.subscribers.markAllMessagesAs(ada, 'seen' as never)).data.data).toBe(2);
      expect((await novu.subscribers.getUnseenCount(ada, false)).data.data.count).toBe(0);

      // Clean-up as an app does it: off the topic, then gone.
      await novu.topics.removeSubscribers(topicKey, { subscribers: [bob] });
      expect((await novu.topics.get(topicKey)).data.data.subscribers).toEqual([ada]);
      expect((await novu.subscribers.delete(bob)).data.data).toEqual({ acknowledged: true, status: 'deleted' });
      await expect(novu.subscribers.get(bob)).rejects.toMatchObject({ response: { status: 404 } });
      await novu.tenants.delete(tenant);
      await expect(novu.tenants.get(tenant)).rejects.toMatchObject({ response: { status: 404 } });
    },
    90_000,
  );
});
