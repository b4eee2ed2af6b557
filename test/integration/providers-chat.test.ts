import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { Delivery } from '#lib/providers/provider.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { deliveryOf } from '../support/deliveries.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';

// Chat providers against a real local HTTP server standing in for each webhook or API: it checks
// the exact request (method, path, auth headers, body) and answers success, 4xx, 5xx, 429 or
// nothing in time. Providers are called directly through the registry, then end to end through
// the API, the queues and the pipeline.

// The fake API, with short timeouts and retry waits for this worker's direct provider calls.
const fake = fakeApiForFile();

const chat = (providerId: string, fields: Partial<Delivery> = {}, credentials: Record<string, unknown> = {}) =>
  deliveryOf(providerId, 'chat', credentials, { to: `${fake.url}/hooks/abc`, content: 'Build 42 passed', ...fields });

describe('Slack (incoming webhook)', () => {
  it('POSTs {text} to the webhook URL, with overrides merged into the message', async () => {
    fake.reply = () => ({ status: 200, headers: { 'x-slack-req-id': 'req-1' }, body: 'ok' });
    const result = await send(
      chat('slack', {
        overrides: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Build 42*' } }], webhookUrl: 'ignored' },
        providerData: { _passthrough: { headers: { 'x-trace': 't1' } } },
      }),
    );
    expect(result.id).toBe('req-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/abc' });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-trace']).toBe('t1');
    expect(request!.json).toEqual({ text: 'Build 42 passed', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Build 42*' } }] });
  });

  it('fails at once on a 4xx with Slack’s answer', async () => {
    fake.reply = () => ({ status: 404, body: 'no_service' });
    const error = await failure(send(chat('slack')));
    expect(error.message).toBe('Slack answered 404: no_service');
    expect(error.raw).toEqual({ status: 404, body: 'no_service' });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 5xx and 429 (with Retry-After), then succeeds', async () => {
    fake.reply = (_r, i) =>
      i === 0
        ? { status: 503, body: 'busy' }
        : i === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: 'slow down' }
          : { status: 200, body: 'ok' };
    const result = await send(chat('slack'));
    expect(fake.requests).toHaveLength(3);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives up after three 5xx answers, and on a webhook that does not answer in time', async () => {
    fake.reply = () => ({ status: 500, body: 'oops' });
    const error = await failure(send(chat('slack')));
    expect(error.raw).toMatchObject({ status: 500, attempts: 3 });

    fake.reset();
    fake.reply = () => ({ status: 200, body: 'ok', delayMs: 1_000 });
    const timeout = await failure(send(chat('slack')));
    expect(timeout.message).toMatch(/did not answer within/);
    expect(timeout.raw).toMatchObject({ error: 'timeout', attempts: 3 });
  });
});

describe('webhook chat providers', () => {
  it('Discord: {content}, wait=true, the message id from the answer', async () => {
    fake.reply = () => ({ status: 200, body: { id: '1234567890', content: 'Build 42 passed' } });
    const result = await send(chat('discord', { overrides: { username: 'CI' } }));
    expect(result.id).toBe('1234567890');
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/hooks/abc' });
    expect(fake.requests[0]!.query.get('wait')).toBe('true');
    expect(fake.requests[0]!.json).toEqual({ content: 'Build 42 passed', username: 'CI' });
  });

  it('Discord: a 400 keeps Discord’s error body', async () => {
    fake.reply = () => ({ status: 400, body: { code: 50006, message: 'Cannot send an empty message' } });
    const error = await failure(send(chat('discord', { content: '' })));
    expect(error.message).toBe('Discord answered 400: Cannot send an empty message');
    expect(error.raw).toEqual({ status: 400, body: { code: 50006, message: 'Cannot send an empty message' } });
  });

  it('Microsoft Teams: text in an Adaptive Card; an author’s own card as is', async () => {
    fake.reply = () => ({ status: 202, body: '' });
    await send(chat('msteams'));
    expect(fake.requests[0]!.json).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [{ type: 'TextBlock', text: 'Build 42 passed', wrap: true }],
          },
        },
      ],
    });
    const own = {
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', body: [] } }],
    };
    await send(chat('msteams', { content: JSON.stringify(own) }));
    expect(fake.requests[1]!.json).toEqual(own);
  });

  it('Mattermost: {text} and the subscriber’s channel', async () => {
    fake.reply = () => ({ status: 200, headers: { 'x-request-id': 'mm-1' }, body: 'ok' });
    const result = await send(chat('mattermost', { channelCredentials: { webhookUrl: 'x', channel: 'town-square' } }));
    expect(result.id).toBe('mm-1');
    expect(fake.requests[0]!.json).toEqual({ text: 'Build 42 passed', channel: 'town-square' });
  });

  it('Zulip: {text} to the Slack-compatible webhook', async () => {
    fake.reply = () => ({ status: 200, body: { result: 'success', msg: '' } });
    await send(chat('zulip', { to: `${fake.url}/api/v1/external/slack_incoming?api_key=k&stream=ops` }));
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/external/slack_incoming' });
    expect(fake.requests[0]!.query.get('stream')).toBe('ops');
    expect(fake.requests[0]!.json).toEqual({ text: 'Build 42 passed' });
  });

  it('Grafana OnCall: alert fields from the subscriber first, then the integration', async () => {
    fake.reply = () => ({ status: 200, body: 'ok' });
    await send(
      chat(
        'grafana-on-call',
        { channelCredentials: { webhookUrl: 'x', title: 'Disk full', externalUrl: 'https://status.acme.test/1' } },
        {
          alertUid: 'uid-1',
          title: 'Default title',
          state: 'alerting',
          imageUrl: 'https://acme.test/i.png',
          externalLink: 'https://acme.test',
        },
      ),
    );
    expect(fake.requests[0]!.json).toEqual({
      alert_uid: 'uid-1',
      title: 'Disk full',
      image_url: 'https://acme.test/i.png',
      state: 'alerting',
      link_to_upstream_details: 'https://status.acme.test/1',
      message: 'Build 42 passed',
    });
  });

  it('chat-webhook: signs the exact body with the integration secret, and sends unsigned without one', async () => {
    fake.reply = () => ({ status: 200, body: { id: 'hook-1' } });
    const result = await send(
      chat('chat-webhook', { channelCredentials: { channel: 'ops' }, overrides: { priority: 'high' } }, { secretKey: 's3cret' }),
    );
    expect(result.id).toBe('hook-1');
    const [signed] = fake.requests;
    expect(signed!.json).toEqual({ content: 'Build 42 passed', channel: 'ops', priority: 'high' });
    expect(signed!.headers['x-signature-sha256']).toBe(createHmac('sha256', 's3cret').update(signed!.text).digest('hex'));

    await send(chat('chat-webhook'));
    expect(fake.requests[1]!.headers['x-signature-sha256']).toBeUndefined();
    expect(fake.requests[1]!.json).toEqual({ content: 'Build 42 passed' });
  });
});

describe('Rocket.Chat (REST API)', () => {
  const credentials = { user: 'bot-user-id', token: 'pat-token' };

  it('posts to chat.postMessage with the user id and token, to a room id or a #channel', async () => {
    fake.reply = () => ({ status: 200, body: { success: true, message: { _id: 'rc-msg-1', msg: 'Build 42 passed' } } });
    const result = await send(chat('rocket-chat', { to: `${fake.url}/`, channelCredentials: { channel: 'GENERAL' } }, credentials));
    expect(result.id).toBe('rc-msg-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/chat.postMessage' });
    expect(request!.headers['x-user-id']).toBe('bot-user-id');
    expect(request!.headers['x-auth-token']).toBe('pat-token');
    expect(request!.json).toEqual({ roomId: 'GENERAL', text: 'Build 42 passed' });

    await send(chat('rocket-chat', { to: fake.url, channelCredentials: { channel: '#ops' } }, credentials));
    expect(fake.requests[1]!.json).toEqual({ channel: '#ops', text: 'Build 42 passed' });
  });

  it('fails on success: false, on a 401, and without a room', async () => {
    fake.reply = () => ({ status: 200, body: { success: false, error: 'room not found' } });
    expect((await failure(send(chat('rocket-chat', { to: fake.url, channelCredentials: { channel: 'nope' } }, credentials)))).message).toBe(
      'Rocket.Chat did not post the message',
    );
    fake.reply = () => ({ status: 401, body: { status: 'error', message: 'You must be logged in to do this.' } });
    expect((await failure(send(chat('rocket-chat', { to: fake.url, channelCredentials: { channel: 'x' } }, credentials)))).message).toBe(
      'Rocket.Chat answered 401: You must be logged in to do this.',
    );
    expect((await failure(send(chat('rocket-chat', { to: fake.url }, credentials)))).message).toMatch(/needs the room/);
  });
});

describe('WhatsApp Business (Cloud API)', () => {
  const credentials = () => ({ apiToken: 'EAAG-token', phoneNumberIdentification: '1055', secretKey: 'app-secret', baseUrl: fake.url });

  it('sends a text message to the phone with the access token', async () => {
    fake.reply = () => ({
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: '+15550001', wa_id: '15550001' }], messages: [{ id: 'wamid.1' }] },
    });
    const result = await send(chat('whatsapp-business', { to: '+15550001' }, credentials()));
    expect(result.id).toBe('wamid.1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v22.0/1055/messages' });
    expect(request!.headers.authorization).toBe('Bearer EAAG-token');
    expect(request!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+15550001',
      type: 'text',
      text: { preview_url: false, body: 'Build 42 passed' },
    });
  });

  it('sends a template when the overrides name one; keeps the Graph API error', async () => {
    fake.reply = () => ({ status: 200, body: { messages: [{ id: 'wamid.2' }] } });
    const template = { name: 'build_status', language: { code: 'en' } };
    await send(chat('whatsapp-business', { to: '+15550001', overrides: { template } }, credentials()));
    expect(fake.requests[0]!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+15550001',
      type: 'template',
      template,
    });

    fake.reply = () => ({
      status: 400,
      body: { error: { message: '(#131030) Recipient phone number not in allowed list', type: 'OAuthException', code: 131030 } },
    });
    const error = await failure(send(chat('whatsapp-business', { to: '+15550001' }, credentials())));
    expect(error.message).toBe('WhatsApp Business answered 400: (#131030) Recipient phone number not in allowed list');
  });
});

// ---- through the API ----------------------------------------------------------------------------

describe('end to end: API → queues → chat provider', () => {
  let api: LocalApi;
  let env: TestEnv;
  let client: ApiClient;

  beforeAll(async () => {
    api = await startTestApi();
    env = (await createTestOrg(api.url)).dev;
    client = env.client;
  });
  afterAll(() => api.close());

  async function integration(body: Record<string, unknown>): Promise<void> {
    const res = await client.post('/v1/integrations', { active: true, channel: 'chat', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  async function subscriber(
    subscriberId: string,
    extra: Record<string, unknown> = {},
    channels: Record<string, unknown>[] = [],
  ): Promise<void> {
    expect((await client.post('/v2/subscribers', { subscriberId, ...extra })).status).toBe(201);
    for (const body of channels) {
      const res = await client.put(`/v1/subscribers/${subscriberId}/credentials`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  const chatWorkflow = (body: string): Promise<string> =>
    createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body } }]);
  const trigger = (body: Record<string, unknown>): Promise<string> => triggerWith(client, body);
  const settled = (transactionId: string): Promise<any> => settledOne(client, transactionId);

  async function chatMessages(subscriberId: string): Promise<any[]> {
    const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=chat&limit=10`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const details = (job: any): [string, string][] => job.executionDetails.map((d: any) => [d.detail, d.status]);

  beforeAll(async () => {
    await integration({ providerId: 'slack', credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'S1' } });
    await integration({ providerId: 'discord' });
    await integration({
      providerId: 'whatsapp-business',
      credentials: { apiToken: 'EAAG', phoneNumberIdentification: '1055', secretKey: 'app-secret', baseUrl: fake.url },
    });
  });

  it('renders the body and posts it to every chat channel of the subscriber; one failure does not fail the step', async () => {
    const subscriberId = `sub-${rand()}`;
    await subscriber(subscriberId, { firstName: 'Ada' }, [
      { providerId: 'slack', credentials: { webhookUrl: `${fake.url}/slack/${subscriberId}` } },
      { providerId: 'discord', credentials: { webhookUrl: `${fake.url}/discord/${subscriberId}` } },
    ]);
    fake.reply = (request) =>
      request.path.startsWith('/discord/')
        ? { status: 404, body: { message: 'Unknown Webhook', code: 10015 } }
        : { status: 200, body: 'ok' };
    const wf = await chatWorkflow('Hi {{subscriber.firstName}}, build {{payload.build}} passed');
    const txid = await trigger({ name: wf, to: subscriberId, payload: { build: 42 } });

    const item = await settled(txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Slack provider was selected', 'Pending'],
      ['Message created', 'Pending'],
      ['Message sent', 'Success'],
      ['Unexpected provider error', 'Failed'],
    ]);
    const slack = fake.requests.find((r) => r.path === `/slack/${subscriberId}`);
    expect(slack!.json).toEqual({ text: 'Hi Ada, build 42 passed' });
    expect(fake.requests.filter((r) => r.path === `/discord/${subscriberId}`)).toHaveLength(1);

    const [message] = await chatMessages(subscriberId);
    expect(message).toMatchObject({
      channel: 'chat',
      status: 'sent',
      providerId: 'slack',
      content: 'Hi Ada, build 42 passed',
      transactionId: txid,
    });
  });

  it('fails the step when every chat channel fails, with the provider’s answer', async () => {
    const subscriberId = `sub-${rand()}`;
    await subscriber(subscriberId, {}, [{ providerId: 'slack', credentials: { webhookUrl: `${fake.url}/slack/${subscriberId}` } }]);
    fake.reply = () => ({ status: 403, body: 'invalid_token' });
    const txid = await trigger({ name: await chatWorkflow('Down'), to: subscriberId });
    const item = await settled(txid);
    expect(item.jobs[0].status).toBe('failed');
    const failed = item.jobs[0].executionDetails.at(-1);
    expect([failed.detail, failed.status, JSON.parse(failed.raw)]).toEqual([
      'Unexpected provider error',
      'Failed',
      { status: 403, body: 'invalid_token' },
    ]);
    const [message] = await chatMessages(subscriberId);
    expect(message).toMatchObject({ status: 'error', errorId: 'unexpected_chat_error', errorText: 'Slack answered 403: invalid_token' });
  });

  it('sends WhatsApp to the subscriber’s phone', async () => {
    const subscriberId = `sub-${rand()}`;
    await subscriber(subscriberId, { phone: '+15550002' }, [{ providerId: 'whatsapp-business', credentials: {} }]);
    fake.reply = () => ({ status: 200, body: { messages: [{ id: `wamid.${subscriberId}` }] } });
    const item = await settled(await trigger({ name: await chatWorkflow('Your code is 1234'), to: subscriberId }));
    expect(item.jobs[0].status).toBe('completed');
    const request = fake.requests.find((r) => r.json?.to === '+15550002');
    expect(request).toMatchObject({ path: '/v22.0/1055/messages', json: { text: { preview_url: false, body: 'Your code is 1234' } } });
    expect(request!.headers.authorization).toBe('Bearer EAAG');
    const [message] = await chatMessages(subscriberId);
    expect(message).toMatchObject({
      status: 'sent',
      providerId: 'whatsapp-business',
      phone: '+15550002',
      identifier: `wamid.${subscriberId}`,
    });
  });

  it('ends without a destination as the reference does: no channel, no webhook URL, no phone', async () => {
    const wf = await chatWorkflow('Nobody hears this');

    const none = `sub-${rand()}`;
    await subscriber(none);
    const noChannel = await settled(await trigger({ name: wf, to: none }));
    expect(noChannel.jobs[0].status).toBe('canceled');
    expect(details(noChannel.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Subscriber does not have a configured channel', 'Warning'],
    ]);
    expect(await chatMessages(none)).toEqual([]);

    const noUrl = `sub-${rand()}`;
    await subscriber(noUrl, {}, [{ providerId: 'slack', credentials: { channel: 'general' } }]);
    const missingUrl = await settled(await trigger({ name: wf, to: noUrl }));
    expect(missingUrl.jobs[0].status).toBe('canceled');
    expect(details(missingUrl.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Webhook URL for the chat channel is missing', 'Failed'],
    ]);
    const [warning] = await chatMessages(noUrl);
    expect(warning).toMatchObject({
      status: 'warning',
      errorId: 'no_subscriber_chat_channel_id',
      errorText: 'Webhook URL for the chat channel is missing',
      providerId: 'slack',
    });

    const noPhone = `sub-${rand()}`;
    await subscriber(noPhone, {}, [{ providerId: 'whatsapp-business', credentials: {} }]);
    const missingPhone = await settled(await trigger({ name: wf, to: noPhone }));
    expect(missingPhone.jobs[0].status).toBe('canceled');
    const [phoneWarning] = await chatMessages(noPhone);
    expect(phoneWarning).toMatchObject({ status: 'warning', errorId: 'no_subscriber_chat_phone_number' });

    // A channel without a URL is skipped, and the others still get the message.
    const mixed = `sub-${rand()}`;
    await subscriber(mixed, {}, [
      { providerId: 'slack', credentials: { channel: 'general' } },
      { providerId: 'discord', credentials: { webhookUrl: `${fake.url}/discord/${mixed}` } },
    ]);
    fake.reply = () => ({ status: 200, body: { id: 'd-1' } });
    const partial = await settled(await trigger({ name: wf, to: mixed }));
    expect(partial.jobs[0].status).toBe('completed');
    expect(details(partial.jobs[0]).map(([d]) => d)).toEqual([
      'Step queued',
      'Discord provider was selected',
      'Message created',
      'Webhook URL for the chat channel is missing',
      'Message sent',
    ]);
  });
});
