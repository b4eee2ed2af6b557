import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '#lib/providers/provider.ts';
import { clientForSuite, expectActivation, uncheckedWarning, type ActivationCase } from '../support/provider-activation.ts';
import { deliveryOf } from '../support/deliveries.ts';
import { createWorkflow, rand } from '../support/pipeline.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';

// Slack with a bot token (chat.postMessage), the built-in Slack (svc-slack), Ryver and
// GetStream, against a local HTTP server standing in for Slack's Web API and the webhooks: it
// checks the request each vendor documents and answers success, refusals, 5xx and 429. Then
// through the API: activation, `check: true`, and a trigger reaching the subscriber's channel.

const fake = fakeApiForFile();

const chat = (providerId: string, fields: Partial<Delivery> = {}, credentials: Record<string, unknown> = {}) =>
  deliveryOf(providerId, 'chat', credentials, { to: `${fake.url}/hooks/abc`, content: 'Build 42 passed', ...fields });

// The integration's baseUrl stands for https://slack.com (as it may for GovSlack).
const app = { applicationId: 'A1', clientId: 'C1', secretKey: 'S1' };
const bot = () => ({ ...app, apiToken: 'xoxb-1-2-abc', baseUrl: fake.url });
const posted = (channel: string) => ({
  status: 200,
  body: { ok: true, channel, ts: '1712345678.000100', message: { text: 'Build 42 passed' } },
});

describe('Slack with a bot token (chat.postMessage)', () => {
  it('posts {channel, text} to chat.postMessage with the bot token; the id is the message ts; overrides merge in', async () => {
    fake.reply = () => posted('C024BE91L');
    const result = await send(
      chat(
        'slack',
        {
          channelCredentials: { channel: 'C024BE91L', webhookUrl: 'https://hooks.slack.test/x' },
          to: 'C024BE91L',
          overrides: { unfurl_links: false },
        },
        bot(),
      ),
    );
    expect(result.id).toBe('1712345678.000100');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/chat.postMessage' });
    expect(request!.headers.authorization).toBe('Bearer xoxb-1-2-abc');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({ channel: 'C024BE91L', text: 'Build 42 passed', unfurl_links: false });
  });

  it('fails with Slack’s error code when it answers ok: false, without retrying', async () => {
    fake.reply = () => ({ status: 200, body: { ok: false, error: 'channel_not_found' } });
    const error = await failure(send(chat('slack', { channelCredentials: { channel: 'C0NOPE' } }, bot())));
    expect(error.message).toBe('Slack did not post the message: channel_not_found');
    expect(error.raw).toEqual({ status: 200, body: { ok: false, error: 'channel_not_found' } });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 429 (with Retry-After) and 5xx, then posts', async () => {
    fake.reply = (_r, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '0' }, body: { ok: false, error: 'ratelimited' } }
        : i === 1
          ? { status: 503, body: '' }
          : posted('C1');
    const result = await send(chat('slack', { channelCredentials: { channel: 'C1' } }, bot()));
    expect(fake.requests).toHaveLength(3);
    expect(result.id).toBe('1712345678.000100');
  });

  it('uses the incoming webhook without a bot token, or when the subscriber has no channel', async () => {
    fake.reply = () => ({ status: 200, headers: { 'x-slack-req-id': 'req-9' }, body: 'ok' });
    const { apiToken: _, ...appOnly } = bot();
    await send(chat('slack', { channelCredentials: { channel: 'C1', webhookUrl: 'x' } }, appOnly));
    await send(chat('slack', { channelCredentials: { webhookUrl: 'x' } }, bot()));
    expect(fake.requests.map((r) => [r.path, r.json])).toEqual([
      ['/hooks/abc', { text: 'Build 42 passed' }],
      ['/hooks/abc', { text: 'Build 42 passed' }],
    ]);
  });

  it('svc-slack delivers the same two ways', async () => {
    fake.reply = (r) =>
      r.path === '/api/chat.postMessage' ? posted('C7') : { status: 200, headers: { 'x-slack-req-id': 'req-7' }, body: 'ok' };
    expect((await send(chat('svc-slack', { channelCredentials: { channel: 'C7' } }, { apiToken: 'xoxb-svc', baseUrl: fake.url }))).id).toBe(
      '1712345678.000100',
    );
    expect((await send(chat('svc-slack', {}, {}))).id).toBe('req-7');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer xoxb-svc');
    expect(fake.requests[1]).toMatchObject({ path: '/hooks/abc', json: { text: 'Build 42 passed' } });
  });
});

describe('Ryver and GetStream (webhooks)', () => {
  it('Ryver: POSTs {body} to the webhook; overrides (createSource) merge in; no id in the answer', async () => {
    fake.reply = () => ({ status: 200, body: '' });
    const result = await send(chat('ryver', { overrides: { createSource: { displayName: 'CI' } } }));
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/hooks/abc',
      json: { body: 'Build 42 passed', createSource: { displayName: 'CI' } },
    });
  });

  it('Ryver: a 4xx fails at once with its answer, a 5xx is retried', async () => {
    fake.reply = () => ({ status: 404, body: { message: 'Webhook not found' } });
    expect((await failure(send(chat('ryver')))).message).toBe('Ryver answered 404: Webhook not found');
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    fake.reply = () => ({ status: 502, body: 'bad gateway' });
    expect((await failure(send(chat('ryver')))).raw).toMatchObject({ status: 502, attempts: 3 });
  });

  it('GetStream: POSTs {text} with the API key in X-API-KEY; the id from X-WEBHOOK-ID', async () => {
    fake.reply = () => ({ status: 200, headers: { 'x-webhook-id': 'wh-1' }, body: {} });
    const result = await send(chat('getstream', {}, { apiKey: 'gs-key' }));
    expect(result.id).toBe('wh-1');
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/hooks/abc', json: { text: 'Build 42 passed' } });
    expect(fake.requests[0]!.headers['x-api-key']).toBe('gs-key');
  });

  it('GetStream: a 401 fails with its answer', async () => {
    fake.reply = () => ({ status: 401, body: { StatusCode: 401, message: 'api key not valid' } });
    expect((await failure(send(chat('getstream', {}, { apiKey: 'wrong' })))).message).toBe('GetStream answered 401: api key not valid');
  });
});

// ---- through the API ----------------------------------------------------------------------------

describe('through the API', () => {
  const client = clientForSuite();
  const WAIT = { timeout: 20_000, interval: 200 };

  const providers: ActivationCase[] = [
    {
      providerId: 'slack',
      valid: { ...app, apiToken: 'xoxb-1' },
      malformed: { ...app, apiToken: 'not-a-token' },
      errors: ['credentials.apiToken'],
    },
    { providerId: 'svc-slack', valid: { apiToken: 'xoxb-1' }, malformed: { apiToken: 'Bearer xoxb-1' }, errors: ['credentials.apiToken'] },
    { providerId: 'ryver', valid: {} }, // Ryver takes no credentials: nothing can be malformed.
    { providerId: 'getstream', valid: { apiKey: 'k' }, malformed: { apiKey: ' ' }, errors: ['credentials.apiKey'] },
  ];

  it.each(providers)('$providerId: active with valid credentials (201), refused with malformed ones (422, nothing saved)', (c) =>
    expectActivation(client, 'chat', c),
  );

  it(
    'check: true asks Slack’s auth.test about a bot token (sends nothing); ' +
      'without one, and for Ryver and GetStream, the answer says nothing was checked',
    async () => {
      fake.reply = () => ({ status: 200, body: { ok: true, team: 'Acme', user: 'notifier' } });
      const checked = await client.post('/v1/integrations', { providerId: 'slack', channel: 'chat', credentials: bot(), check: true });
      expect(checked.status, JSON.stringify(checked.body)).toBe(201);
      expect(checked.headers.get('warning')).toBeNull();
      expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
        ['POST', '/api/auth.test', 'Bearer xoxb-1-2-abc'],
      ]);

      fake.reply = () => ({ status: 200, body: { ok: false, error: 'invalid_auth' } });
      const refused = await client.post('/v1/integrations', {
        providerId: 'slack',
        channel: 'chat',
        credentials: { ...bot(), apiToken: 'xoxb-revoked' },
        check: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Integration check failed for slack: Slack refused the token: invalid_auth');

      // Slack without a bot token has nothing to test (its webhook URLs are the subscribers').
      for (const [providerId, credentials] of [
        ['ryver', {}],
        ['getstream', { apiKey: 'k' }],
        ['slack', app],
        ['svc-slack', {}],
      ] as const) {
        const created = await client.post('/v1/integrations', { providerId, channel: 'chat', credentials, check: true });
        expect(created.status).toBe(201);
        expect(created.headers.get('warning')).toBe(uncheckedWarning(providerId));
      }
      expect(fake.requests).toHaveLength(2);
    },
  );

  it('a trigger reaches the subscriber’s Slack channel through the bot token, and Ryver through its webhook', async () => {
    const slack = await client.post('/v1/integrations', {
      providerId: 'slack',
      channel: 'chat',
      active: true,
      identifier: `slack-bot-${rand()}`,
      credentials: bot(),
    });
    const ryver = await client.post('/v1/integrations', {
      providerId: 'ryver',
      channel: 'chat',
      active: true,
      identifier: `ryver-${rand()}`,
    });
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' })).status).toBe(201);
    for (const body of [
      { providerId: 'slack', integrationIdentifier: slack.body.data.identifier, credentials: { channel: 'C0ADA' } },
      {
        providerId: 'ryver',
        integrationIdentifier: ryver.body.data.identifier,
        credentials: { webhookUrl: `${fake.url}/ryver/${subscriberId}` },
      },
    ]) {
      const res = await client.put(`/v1/subscribers/${subscriberId}/credentials`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    fake.reply = (r) => (r.path === '/api/chat.postMessage' ? posted('C0ADA') : { status: 200, body: '' });
    const workflowId = await createWorkflow(client, [
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hi {{subscriber.firstName}}' } },
    ]);
    const trigger = await client.post('/v1/events/trigger', { name: workflowId, to: subscriberId });
    expect(trigger.status).toBe(201);

    // One message per chat step, recording its first destination (as with several webhooks).
    const [message] = await vi.waitFor(async () => {
      const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=chat&limit=10`);
      expect(res.body.data.map((m: any) => [m.providerId, m.status])).toEqual([['slack', 'sent']]);
      expect(fake.requests.some((r) => r.path === `/ryver/${subscriberId}`)).toBe(true);
      return res.body.data as any[];
    }, WAIT);
    const toSlack = fake.requests.find((r) => r.path === '/api/chat.postMessage' && r.json?.channel === 'C0ADA');
    expect(toSlack!.json).toEqual({ channel: 'C0ADA', text: 'Hi Ada' });
    expect(toSlack!.headers.authorization).toBe('Bearer xoxb-1-2-abc');
    expect(fake.requests.find((r) => r.path === `/ryver/${subscriberId}`)!.json).toEqual({ body: 'Hi Ada' });
    // A Slack channel is not a webhook URL: the message names none.
    expect(message).toMatchObject({ content: 'Hi Ada', identifier: '1712345678.000100' });
    expect(message.directWebhookUrl).toBeUndefined();
  });
});
