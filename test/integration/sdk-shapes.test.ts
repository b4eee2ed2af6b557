import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { ValidationErrorDto } from '@novu/api/models/errors/validationerrordto.js';
import { Novu as InboxClient } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { createWorkflow, rand, WAIT } from '../support/pipeline.ts';

// Operations of `@novu/api` 3.19.1 whose answers its schemas used to refuse (a
// ResponseValidationError or an "unexpected status" for its user), each called through the SDK
// and checked on the values it hands back. The SDK validates every response and throws on a
// missing required field, a status it does not expect, or a 422 without `errors`.

let api: LocalApi;
let env: TestEnv;
let novu: Novu;

// @novu/api knows the reference's brand (`novu…` provider ids and origins); ours are `svc…`.
const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const res = await fetch(input, init);
      return new Response(debrand(await res.text()), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url, httpClient });
});
afterAll(() => api.close());

const ID = expect.stringMatching(/^[0-9a-f]{24}$/);

async function subscribers(prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const subscriberId of ids) await novu.subscribers.create({ subscriberId, firstName: subscriberId });
  return ids;
}

describe('topic subscriptions through @novu/api', () => {
  it('subscribe with and without identifiers, then list by topic and by subscriber', async () => {
    const [ann, bob, cat] = await subscribers(`sub-${rand()}`, 3);
    const topicKey = `topic-${rand()}`;

    const created = await novu.topics.subscriptions.create(
      { subscriptions: [{ identifier: 'ann-news', subscriberId: ann!, name: 'Ann reads the news' }, bob!], subscriberIds: [cat!] },
      topicKey,
    );
    expect(created.result.meta).toEqual({ totalCount: 3, successful: 3, failed: 0 });
    expect(created.result.data.map((s) => [s.subscriber?.subscriberId, s.identifier, s.name])).toEqual([
      [ann, 'ann-news', 'Ann reads the news'],
      [bob, `tk_${topicKey}:si_${bob}`, undefined],
      [cat, `tk_${topicKey}:si_${cat}`, undefined],
    ]);

    const byTopic = await novu.topics.subscriptions.list({ topicKey, orderDirection: 'ASC' });
    expect(byTopic.result).toMatchObject({ next: null, previous: null, totalCount: 3, totalCountCapped: false });
    expect(byTopic.result.data.map((s) => [s.subscriber.subscriberId, s.identifier])).toEqual([
      [ann, 'ann-news'],
      [bob, `tk_${topicKey}:si_${bob}`],
      [cat, `tk_${topicKey}:si_${cat}`],
    ]);
    expect(byTopic.result.data[0]).toMatchObject({ id: ID, createdAt: expect.any(String), topic: { id: ID, key: topicKey } });

    const bySubscriber = await novu.subscribers.topics.list({ subscriberId: ann! });
    expect(bySubscriber.result).toMatchObject({ totalCount: 1, totalCountCapped: false });
    expect(bySubscriber.result.data).toEqual([
      {
        id: byTopic.result.data[0]!.id,
        identifier: 'ann-news',
        createdAt: byTopic.result.data[0]!.createdAt,
        topic: expect.objectContaining({ id: ID, key: topicKey }),
        subscriber: expect.objectContaining({ id: ID, subscriberId: ann }),
      },
    ]);
  });

  it('a subscriber asked for twice is subscribed once, as first asked', async () => {
    const [ann] = await subscribers(`twice-${rand()}`, 1);
    const topicKey = `topic-${rand()}`;
    const created = await novu.topics.subscriptions.create(
      { subscriptions: [{ identifier: 'first', subscriberId: ann! }, ann!], subscriberIds: [ann!] },
      topicKey,
    );
    expect(created.result.data.map((s) => s.identifier)).toEqual(['first']);
    // Already subscribed: the subscription keeps the identifier it was made with.
    const again = await novu.topics.subscriptions.create({ subscriptions: [{ identifier: 'second', subscriberId: ann! }] }, topicKey);
    expect(again.result.data.map((s) => s.identifier)).toEqual(['first']);
  });
});

describe('list totals through @novu/api', () => {
  it('subscribers: totalCount counts what the filters match, not the page', async () => {
    const prefix = `total-${rand()}`;
    await subscribers(prefix, 3);
    const page = await novu.subscribers.search({ limit: 2 });
    expect(page.result.data).toHaveLength(2);
    expect(page.result.totalCount).toBeGreaterThanOrEqual(3);
    expect(page.result.totalCountCapped).toBe(false);
    const named = await novu.subscribers.search({ name: prefix, limit: 1 });
    expect(named.result).toMatchObject({ totalCount: 3, totalCountCapped: false });
  });

  it('topics: totalCount of the list and of a name filter', async () => {
    const name = `Totals ${rand()}`;
    for (const n of [1, 2]) await novu.topics.create({ key: `totals-${rand()}`, name: `${name} ${n}` });
    const filtered = await novu.topics.list({ name, limit: 1 });
    expect(filtered.result.data).toHaveLength(1);
    expect(filtered.result).toMatchObject({ totalCount: 2, totalCountCapped: false });
    const all = await novu.topics.list({});
    expect(all.result.totalCount).toBeGreaterThanOrEqual(2);
  });
});

describe('workflows through @novu/api', () => {
  it('lists each workflow with its steps', async () => {
    const workflowId = await createWorkflow(env.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
      { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'seconds' } },
    ]);
    const { result } = await novu.workflows.list({ query: workflowId });
    expect(result.totalCount).toBe(1);
    expect(result.workflows[0]).toMatchObject({
      workflowId,
      stepTypeOverviews: ['in_app', 'delay'],
      steps: [
        { slug: expect.stringMatching(/^inbox_st_/), type: 'in_app' },
        { slug: expect.stringMatching(/^wait_st_/), type: 'delay' },
      ],
    });
  });
});

describe('integrations through @novu/api', () => {
  it('sets an email integration as the primary one (200)', async () => {
    const created = await novu.integrations.create({
      providerId: 'mailjet',
      channel: 'email',
      identifier: `mailjet-${rand()}`,
      credentials: { apiKey: 'key', secretKey: 'secret', from: 'no-reply@example.com', senderName: 'Acme' },
    });
    const primary = await novu.integrations.setAsPrimary(created.result.id!);
    expect(primary.result).toMatchObject({ id: created.result.id, providerId: 'mailjet', primary: true, active: true });
  });
});

describe('422 through @novu/api', () => {
  async function refusal(call: () => Promise<unknown>): Promise<ValidationErrorDto> {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationErrorDto);
    return error as ValidationErrorDto;
  }

  it("a trigger of an unknown workflow is a ValidationErrorDto naming the trigger's name", async () => {
    const error = await refusal(() => novu.trigger({ workflowId: 'no-such-workflow', to: 'someone' }));
    expect(error.statusCode).toBe(422);
    expect(error.message).toBe('workflow_not_found');
    expect(error.errors).toEqual({ name: { messages: ['No workflow with the identifier "no-such-workflow"'], value: 'no-such-workflow' } });
  });

  it('an idempotency key reused with another body is a ValidationErrorDto', async () => {
    const [ann, bob] = await subscribers(`idem-${rand()}`, 2);
    const [key, topicKey] = [`key-${rand()}`, `topic-${rand()}`];
    await novu.topics.subscriptions.create({ subscriberIds: [ann!] }, topicKey, key);
    const error = await refusal(() => novu.topics.subscriptions.create({ subscriberIds: [bob!] }, topicKey, key));
    expect(error.errors).toEqual({ 'Idempotency-Key': { messages: [error.message], value: key } });
  });

  it('a body the route schema refuses is a ValidationErrorDto with one entry per field', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => `s${i}`);
    const error = await refusal(() => novu.topics.subscriptions.create({ subscriberIds: tooMany }, `topic-${rand()}`));
    expect(error.errors.subscriberIds?.messages).toEqual(['Cannot change more than 100 subscriptions at once']);
  });
});

describe('newest-first lists in createdAt order', () => {
  it('in-app messages of one bulk trigger, through the v1 feed and the inbox', async () => {
    const workflowId = await createWorkflow(env.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Message {{payload.n}}' } },
    ]);
    const subscriberId = `order-${rand()}`;
    const events = Array.from({ length: 6 }, (_, n) => ({ workflowId, to: subscriberId, payload: { n } }));
    await novu.triggerBulk({ events });

    const feed = await vi.waitFor(async () => {
      const res = await env.client.get(`/v1/subscribers/${subscriberId}/notifications/feed?limit=50`);
      expect(res.body.data).toHaveLength(events.length);
      return res.body.data as { _id: string; createdAt: string }[];
    }, WAIT);
    expectNewestFirst(feed);

    const inbox = new InboxClient({
      applicationIdentifier: env.applicationIdentifier,
      subscriber: { subscriberId },
      apiUrl: api.url,
    } as ConstructorParameters<typeof InboxClient>[0]);
    const { data, error } = await inbox.notifications.list({ limit: 50, useCache: false } as Parameters<
      InboxClient['notifications']['list']
    >[0]);
    expect(error).toBeUndefined();
    const listed = data!.notifications.map((n) => ({ _id: n.id, createdAt: n.createdAt }));
    expect(listed.map((n) => n._id)).toEqual(feed.map((n) => n._id));
    expectNewestFirst(listed);
  });
});

/** Ids descending (the lists' order) and createdAt never increasing along them. */
function expectNewestFirst(items: { _id: string; createdAt: string }[]) {
  const ids = items.map((i) => i._id);
  expect(ids).toEqual([...ids].sort().reverse());
  const times = items.map((i) => Date.parse(i.createdAt));
  expect(times).toEqual([...times].sort((a, b) => b - a));
}
