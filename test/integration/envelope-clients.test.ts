import { Novu as NovuApi } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { createWorkflow, rand } from '../support/pipeline.ts';

// The envelope decision through both of the reference's server SDKs. The legacy v1 routes answer
// `{data: …}` as the reference does, so an app on `@novu/node` 2.x (which hands back the axios
// response) reads `res.data.data`; `@novu/api` unwraps a single-key `{data}` body itself, so it
// reads the same routes unchanged. The interface's own endpoints stay unwrapped:
// the `@novu/node` calls that reach them read their answer at `res.data` (docs/differences.md).

let api: LocalApi;
let env: TestEnv;
let node: Novu;
let sdk: NovuApi;
let workflowId: string;

// @novu/api validates provider ids against the reference's brand (`novu…`); ours are `svc…`.
const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  node = new Novu(env.apiKey, { backendUrl: api.url });
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const res = await fetch(input, init);
      return new Response(debrand(await res.text()), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  sdk = new NovuApi({ secretKey: env.apiKey, serverURL: api.url, httpClient });
  workflowId = await createWorkflow(env.client, [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } }]);
});
afterAll(() => api.close());

async function subscriberWithMessage(): Promise<{ subscriberId: string; messageId: string }> {
  const subscriberId = `env-${rand()}`;
  const { data } = await node.subscribers.identify(subscriberId, {});
  const [message] = await seedMessages([buildMessage(env.scope, { subscriberId, _id: data.data._id })]);
  return { subscriberId, messageId: message!._id };
}

describe('legacy v1 routes in the {data} envelope', () => {
  it('trigger, broadcast and cancel', async () => {
    const triggered = await node.trigger(workflowId, { to: `env-${rand()}`, payload: {} });
    expect(triggered.status).toBe(201);
    expect(triggered.data).toEqual({ data: { acknowledged: true, status: 'processed', transactionId: expect.any(String) } });
    const viaSdk = await sdk.trigger({ workflowId, to: `env-${rand()}`, payload: {} });
    expect(viaSdk.result).toMatchObject({ acknowledged: true, status: 'processed' });

    const broadcast = await node.broadcast(workflowId, { payload: {} });
    expect(broadcast.data.data).toMatchObject({ acknowledged: true, status: 'processed' });
    expect((await sdk.triggerBroadcast({ name: workflowId, payload: {} })).result).toMatchObject({ status: 'processed' });

    const canceled = await node.events.cancel(triggered.data.data.transactionId);
    expect(canceled.status).toBe(200);
    expect(canceled.data).toEqual({ data: expect.any(Boolean) });
    expect((await sdk.cancel(`no-such-${rand()}`)).result).toBe(false);
  });

  it('unseen count, mark-all and message delete', async () => {
    const { subscriberId, messageId } = await subscriberWithMessage();
    expect((await node.subscribers.getUnseenCount(subscriberId, false)).data).toEqual({ data: { count: 1 } });
    expect((await sdk.subscribers.notifications.unseenCount({ subscriberId, seen: false })).result).toEqual({ count: 1 });

    const marked = await node.subscribers.markAllMessagesAs(subscriberId, 'seen' as never);
    expect(marked.status).toBe(201);
    expect(marked.data).toEqual({ data: 1 });
    expect((await sdk.subscribers.messages.markAll({ markAs: 'read' }, subscriberId)).result).toBe(1);

    const deleted = await node.messages.deleteById(messageId);
    expect(deleted.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    const other = await subscriberWithMessage();
    expect((await sdk.messages.delete(other.messageId)).result).toEqual({ acknowledged: true, status: 'deleted' });
  });

  it('integration create, set-primary and delete; credentials PATCH', async () => {
    const created = await node.integrations.create('discord', { channel: 'chat' as never, active: true, identifier: `discord-${rand()}` });
    expect(created.status).toBe(201);
    expect(Object.keys(created.data)).toEqual(['data']);
    expect(created.data.data).toMatchObject({ providerId: 'discord', channel: 'chat', active: true });
    const viaSdk = await sdk.integrations.create({
      providerId: 'mailjet',
      channel: 'email',
      identifier: `mailjet-${rand()}`,
      credentials: { apiKey: 'key', secretKey: 'secret', from: 'no-reply@example.com', senderName: 'Acme' },
    });
    expect(viaSdk.result).toMatchObject({ providerId: 'mailjet', channel: 'email' });

    const primary = await node.integrations.setIntegrationAsPrimary(viaSdk.result.id!);
    expect(primary.data.data).toMatchObject({ _id: viaSdk.result.id, primary: true });

    const subscriberId = `env-${rand()}`;
    await node.subscribers.identify(subscriberId, {});
    const appended = await sdk.subscribers.credentials.append(
      { providerId: 'discord', credentials: { webhookUrl: 'https://hooks.example/x' } },
      subscriberId,
    );
    expect(appended.result.channels).toEqual([
      expect.objectContaining({ providerId: 'discord', credentials: { webhookUrl: 'https://hooks.example/x' } }),
    ]);
    const patched = await env.client.patch(`/v1/subscribers/${subscriberId}/credentials`, {
      providerId: 'discord',
      credentials: { webhookUrl: 'https://hooks.example/y' },
    });
    expect(patched.body.data.channels[0].credentials.webhookUrl).toBe('https://hooks.example/y');

    const removed = await node.integrations.delete(created.data.data._id);
    expect(removed.status).toBe(200);
    expect(removed.data.data.map((i: { _id: string }) => i._id)).not.toContain(created.data.data._id);
    const removedViaSdk = await sdk.integrations.delete(viaSdk.result.id!);
    expect(removedViaSdk.result.map((i) => i.id)).not.toContain(viaSdk.result.id);
  });
});

describe("the interface's endpoints stay unwrapped", () => {
  it('bulk trigger, the integrations list and update, the credentials PUT: @novu/node reads them at res.data', async () => {
    const bulk = await node.bulkTrigger([{ name: workflowId, to: `env-${rand()}`, payload: {} }]);
    expect(bulk.status).toBe(201);
    expect(bulk.data).toEqual([{ acknowledged: true, status: 'processed', transactionId: expect.any(String) }]);

    const list = await node.integrations.getAll();
    expect(Array.isArray(list.data)).toBe(true);
    const inApp = list.data.find(
      (i: { providerId: string; _environmentId: string }) => i.providerId === 'svc' && i._environmentId === env.id,
    );
    const updated = await node.integrations.update(inApp._id, { name: 'Inbox' });
    expect(updated.data).toMatchObject({ _id: inApp._id, name: 'Inbox' });

    const subscriberId = `env-${rand()}`;
    await node.subscribers.identify(subscriberId, {});
    await node.integrations.create('discord', { channel: 'chat' as never, active: true, identifier: `discord-${rand()}` });
    const credentials = await node.subscribers.setCredentials(subscriberId, 'discord', { webhookUrl: 'https://hooks.example/z' });
    expect(credentials.data).toMatchObject({ subscriberId, channels: [{ providerId: 'discord' }] });
    // @novu/api reads the same bodies: unwrapped is what it would unwrap to.
    expect((await sdk.integrations.list()).result.length).toBe((await node.integrations.getAll()).data.length);
  });

  it('pages already carry data, the same either way: the feed and the messages list', async () => {
    const { subscriberId, messageId } = await subscriberWithMessage();
    const feed = await node.subscribers.getNotificationsFeed(subscriberId, {});
    expect(feed.data).toMatchObject({ page: 0, hasMore: false, data: [expect.objectContaining({ _id: messageId })] });
    const messages = await node.messages.list({ subscriberId });
    expect(messages.data.data.map((m: { _id: string }) => m._id)).toEqual([messageId]);
  });
});
