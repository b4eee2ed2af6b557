import { generateKeyPairSync, sign } from 'node:crypto';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestOrg } from '../support/api.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { fakeApiForFile, type RecordedRequest, type Reply } from '../support/provider-servers.ts';

// The integration set-up operations of `@novu/api` 3.19 (issue 36, item 5), through the SDK
// against a local stand-in for SendGrid's and Telegram's APIs (the integrations' baseUrl):
// auto-configure points SendGrid's event webhook at the integration's receipts and keeps its
// verification key, which then accepts SendGrid's signed events; webhook/configure registers our
// updates URL with a Telegram bot; createMobileLink issues the bot's single-use deep link, whose
// `/start` links the subscriber's chat, where a triggered chat step then posts. Providers whose
// API allows none of it, bad input and other environments get a 4xx saying why.

vi.setConfig({ testTimeout: 180_000 });

const fake = fakeApiForFile();
let api: LocalApi;
let org: TestOrg;
let client: ApiClient;
let novu: Novu;

const BOT_TOKEN = '123456:bot-token';
const telegramIdentifier = `telegram-${rand()}`;
let telegramId: string;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  client = org.dev.client;
  novu = new Novu({ secretKey: org.dev.apiKey, serverURL: api.url, retryConfig: { strategy: 'none' } });
  const res = await client.post('/v1/integrations', {
    providerId: 'telegram',
    channel: 'chat',
    identifier: telegramIdentifier,
    active: true,
    credentials: { apiToken: BOT_TOKEN, baseUrl: fake.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  telegramId = res.body.data._id;
}, 120_000);
afterAll(() => api.close());

async function createIntegration(body: Record<string, unknown>): Promise<{ _id: string; identifier: string }> {
  const res = await client.post('/v1/integrations', { identifier: `${String(body.providerId)}-${rand()}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The SDK's error for a refused call: its HTTP status and the API's message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { statusCode?: number; body?: string; message?: string } | undefined;
  expect(error, 'the call was expected to fail').toBeDefined();
  return { status: error!.statusCode ?? 0, message: `${error!.message ?? ''} ${error!.body ?? ''}` };
}

describe('auto-configure', () => {
  const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

  it('points SendGrid’s signed event webhook at the receipts URL and keeps the key its events are signed with', async () => {
    const sendgrid = await createIntegration({
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.key', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
    });
    fake.reply = (r) =>
      r.method === 'POST' && r.path === '/v3/user/webhooks/event/settings'
        ? { status: 201, body: { id: 'wh-1', url: r.json?.url, enabled: true } }
        : r.method === 'PATCH' && r.path === '/v3/user/webhooks/event/settings/signed/wh-1'
          ? { status: 200, body: { id: 'wh-1', public_key: publicKey } }
          : { status: 404, body: { errors: [{ message: 'not found' }] } };
    const { result } = await novu.integrations.integrationsControllerAutoConfigureIntegration(sendgrid._id);
    const receipts = `${api.url}/v2/inbound-webhooks/delivery-providers/${org.dev.id}/${sendgrid._id}`;
    expect(result).toMatchObject({ success: true, message: expect.stringContaining(receipts) });
    // The SDK's model of the answer's integration is an empty object; what was stored is read back.
    const stored = (await novu.integrations.list()).result.find((i) => i.id === sendgrid._id)!;
    expect(stored.configurations).toMatchObject({ inboundWebhookEnabled: true, inboundWebhookSigningKey: publicKey });
    const created = fake.requests.find((r) => r.method === 'POST')!;
    expect(created.headers.authorization).toBe('Bearer SG.key');
    expect(created.json).toMatchObject({ enabled: true, url: receipts, delivered: true, bounce: true, open: true });
    expect(fake.requests.find((r) => r.method === 'PATCH')!.json).toEqual({ enabled: true });
    // Over plain HTTP the answer's integration is there, without its credentials.
    const raw = await client.post(`/v1/integrations/${sendgrid._id}/auto-configure`, {});
    expect(raw.status).toBe(200);
    expect(raw.body.integration).toMatchObject({
      _id: sendgrid._id,
      credentials: {},
      configurations: { inboundWebhookSigningKey: publicKey },
    });
    expect(JSON.stringify(raw.body)).not.toContain('SG.key');

    // SendGrid's events signed with that key are accepted at the receipts URL; unsigned ones are not.
    const body = JSON.stringify([{ event: 'delivered', sg_event_id: `e-${rand()}`, sg_message_id: 'unknown.filter', timestamp: 1 }]);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign('sha256', Buffer.from(timestamp + body), keys.privateKey).toString('base64');
    const post = (headers: Record<string, string>) =>
      fetch(receipts, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const signed = await post({ 'x-twilio-email-event-webhook-timestamp': timestamp, 'x-twilio-email-event-webhook-signature': signature });
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect((await post({})).status).toBe(401);
  });

  it('answers success: false with SendGrid’s reason when the key lacks the permission, and changes nothing', async () => {
    const sendgrid = await createIntegration({
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.limited', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
    });
    fake.reply = () => ({ status: 403, body: { errors: [{ field: null, message: 'access forbidden' }] } });
    const { result } = await novu.integrations.integrationsControllerAutoConfigureIntegration(sendgrid._id);
    expect(result.success).toBe(false);
    expect(result.message).toContain('access forbidden');
    expect(result.integration).toBeUndefined();
    const stored = (await novu.integrations.list()).result.find((i) => i.id === sendgrid._id)!;
    expect(stored.configurations?.inboundWebhookSigningKey).toBeUndefined();
  });

  it('refuses a provider whose API allows no such set-up with what to do instead, and an unknown id with a 404', async () => {
    const mailgun = await createIntegration({
      providerId: 'mailgun',
      channel: 'email',
      active: false,
      credentials: { apiKey: 'key', domain: 'mg.acme.test', from: 'a@acme.test', senderName: 'Acme' },
    });
    const refused = await refusal(novu.integrations.integrationsControllerAutoConfigureIntegration(mailgun._id));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain(`/v2/inbound-webhooks/delivery-providers/${org.dev.id}/${mailgun._id}`);
    expect(refused.message).toContain('inboundWebhookSigningKey');
    const chat = await refusal(novu.integrations.integrationsControllerAutoConfigureIntegration(telegramId));
    expect(chat).toMatchObject({ status: 400, message: expect.stringContaining('only email and sms providers') });
    expect((await refusal(novu.integrations.integrationsControllerAutoConfigureIntegration('0123456789abcdef01234567'))).status).toBe(404);
    expect(fake.requests).toEqual([]);
  });
});

/** Telegram's Bot API as the bot `acme_bot` answers it; `post` answers sendMessage. */
function telegramReplies(post: Reply = { status: 200, body: { ok: true, result: { message_id: 77 } } }) {
  return (r: RecordedRequest): Reply => {
    if (r.path === `/bot${BOT_TOKEN}/getMe`)
      return { status: 200, body: { ok: true, result: { id: 1, is_bot: true, username: 'acme_bot' } } };
    if (r.path === `/bot${BOT_TOKEN}/setWebhook`) return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
    if (r.path === `/bot${BOT_TOKEN}/sendMessage`) return post;
    return { status: 404, body: { ok: false, description: 'Not Found' } };
  };
}

describe('Telegram: webhook/configure and the mobile link', () => {
  it('registers the updates URL; the deep link’s /start links the subscriber’s chat, where a chat step then posts', async () => {
    fake.reply = telegramReplies();
    const configured = (await novu.integrations.integrationsControllerConfigureIntegrationWebhook(telegramIdentifier)).result;
    expect(configured.botUsername).toBe('acme_bot');
    expect(configured.webhookUrl).toMatch(new RegExp(`^${api.url}/webhooks/telegram/${org.dev.id}/[0-9a-f]{24}$`));
    expect(Date.now() - Date.parse(configured.configuredAt)).toBeLessThan(60_000);
    const setWebhook = fake.requests.find((r) => r.path.endsWith('/setWebhook'))!;
    expect(setWebhook.json).toMatchObject({ url: configured.webhookUrl, allowed_updates: ['message'] });
    const secret = setWebhook.json.secret_token as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{1,256}$/);

    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const link = (await novu.integrations.createMobileLink({ subscriberId }, telegramIdentifier)).result;
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link.url).toBe(`https://t.me/acme_bot?start=${link.token}`);
    const ttl = Date.parse(link.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);

    // Telegram posts the subscriber's `/start <token>`: a wrong secret is refused, the right one links the chat once.
    const update = { update_id: 1, message: { message_id: 5, text: `/start ${link.token}`, chat: { id: 4242, type: 'private' } } };
    const postUpdate = (token: string) =>
      fetch(configured.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': token },
        body: JSON.stringify(update),
      });
    expect((await postUpdate('forged')).status).toBe(401);
    const linked = await postUpdate(secret);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({ ok: true, linked: subscriberId });
    const replay = await postUpdate(secret);
    expect(await replay.json()).toEqual({ ok: true });
    const subscriber = (await novu.subscribers.retrieve(subscriberId)).result;
    expect(subscriber.channels).toEqual([
      expect.objectContaining({ providerId: 'telegram', credentials: expect.objectContaining({ channel: '4242' }) }),
    ]);

    fake.reset();
    fake.reply = telegramReplies();
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Deploy done' } }]);
    const sent = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    const message = fake.requests.find((r) => r.path === `/bot${BOT_TOKEN}/sendMessage`)!;
    expect(message.json).toEqual({ chat_id: '4242', text: 'Deploy done' });
  });

  it('refuses other providers, a token Telegram rejects, a missing or unknown subscriber, and other environments', async () => {
    const slack = await createIntegration({
      providerId: 'slack',
      channel: 'chat',
      credentials: { applicationId: 'A', clientId: 'c', secretKey: 's' },
    });
    fake.reply = telegramReplies();
    const notTelegram = await refusal(novu.integrations.integrationsControllerConfigureIntegrationWebhook(slack.identifier));
    expect(notTelegram).toMatchObject({ status: 400, message: expect.stringContaining('only available for Telegram integrations') });
    expect((await refusal(novu.integrations.createMobileLink({ subscriberId: 'x' }, slack.identifier))).status).toBe(400);
    expect((await refusal(novu.integrations.createMobileLink({}, telegramIdentifier))).message).toContain('subscriberId is required');
    expect((await refusal(novu.integrations.createMobileLink({ subscriberId: `none-${rand()}` }, telegramIdentifier))).status).toBe(404);
    expect((await refusal(novu.integrations.integrationsControllerConfigureIntegrationWebhook(`none-${rand()}`))).status).toBe(404);

    const prod = new Novu({ secretKey: org.prod.apiKey, serverURL: api.url, retryConfig: { strategy: 'none' } });
    expect((await refusal(prod.integrations.integrationsControllerConfigureIntegrationWebhook(telegramIdentifier))).status).toBe(404);
    expect((await refusal(prod.integrations.createMobileLink({ subscriberId: 'x' }, telegramIdentifier))).status).toBe(404);

    fake.reply = () => ({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    const rejected = await refusal(novu.integrations.integrationsControllerConfigureIntegrationWebhook(telegramIdentifier));
    expect(rejected).toMatchObject({ status: 400, message: expect.stringContaining('Unauthorized') });

    // An update to another environment's URL, or with a body that is not an update, changes nothing.
    const otherEnv = await fetch(`${api.url}/webhooks/telegram/${org.prod.id}/0123456789abcdef01234567`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ update_id: 2 }),
    });
    expect(otherEnv.status).toBe(404);
  });
});
