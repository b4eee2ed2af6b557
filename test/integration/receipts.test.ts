import { createHash, createHmac, createSign, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { ENV } from '#lib/config.ts';
import { createTestOrg, startTestApi, type ApiClient, type ApiResponse, type TestOrg } from '../support/api.ts';
import { rand, settledOne, triggerWith, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi, type RecordedRequest, type Reply } from '../support/provider-servers.ts';

// Delivery receipts from providers, end to end: a message is sent through the pipeline to a fake
// provider, then the vendor's documented receipt (test/fixtures/receipts, from each vendor's
// docs) is signed as the vendor signs it and posted to the receipt URL. The activity feed shows a
// `Webhook` detail, the message's delivery state moves, and a customer's endpoint receives the
// outbound event, verified with `standardwebhooks`. Forged, unsigned and replayed receipts too.

vi.setConfig({ testTimeout: 120_000 });
process.env[ENV.localSnsCertificates] = 'true';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/receipts/${name}`, import.meta.url), 'utf8');
const SNS_KEY = fixture('sns-signing.key');
const SNS_CERT = fixture('sns-signing.crt');
const CERT_PATH = '/SimpleNotificationService-test.pem';

let api: LocalApi;
let fake: FakeApi;
let org: TestOrg;
let client: ApiClient;
let receiver: FakeApi;

/** What the fake providers answer: a send gets an id of its own; SNS serves its certificate and confirmations. */
function providerReply(request: RecordedRequest): Reply {
  if (request.path === CERT_PATH) return { status: 200, body: SNS_CERT };
  if (request.path === '/confirm-subscription') return { status: 200, body: '<ConfirmSubscriptionResponse/>' };
  if (request.path === '/v2/email/outbound-emails') return { status: 200, body: { MessageId: `ses-${rand()}` } };
  if (request.path.endsWith('/mail/send')) return { status: 202, headers: { 'x-message-id': `sg${rand()}` }, body: '' };
  if (request.path === '/v2/messages') return { status: 200, body: { data: { id: crypto.randomUUID(), to: [{ status: 'queued' }] } } };
  if (request.path.endsWith('/messages')) return { status: 200, body: { id: `<${rand()}.1@mg.acme.test>`, message: 'Queued. Thank you.' } };
  if (request.path === '/emails') return { status: 200, body: { id: crypto.randomUUID() } };
  // Mailjet's numeric MessageID is past what a JSON number holds exactly: sent as text, as Mailjet sends it.
  if (request.path === '/v3.1/send')
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body:
        '{"Messages":[{"Status":"success","To":[{"Email":"x@example.test",' +
        `"MessageUUID":"${crypto.randomUUID()}","MessageID":1152921520417546245}]}]}`,
    };
  if (request.path === '/email') return { status: 200, body: { MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' } };
  if (request.path === '/v3/smtp/email') return { status: 201, body: { messageId: `<${rand()}.1@smtp-relay.mailin.fr>` } };
  if (request.path === '/sms/2/text/advanced')
    return { status: 200, body: { messages: [{ messageId: `ib-${rand()}`, status: { groupName: 'PENDING' } }] } };
  if (request.path.endsWith('/Message/'))
    return { status: 202, body: { api_id: rand(), message: 'message(s) queued', message_uuid: [crypto.randomUUID()] } };
  if (request.path === '/sms/json')
    return { status: 200, body: { 'message-count': '1', messages: [{ to: '15550100', 'message-id': rand().toUpperCase(), status: '0' }] } };
  if (request.path.endsWith('/Messages.json')) return { status: 201, body: { sid: `SM${rand()}`, status: 'queued' } };
  return { status: 404, body: {} };
}

beforeAll(async () => {
  [api, fake, receiver] = await Promise.all([startTestApi(), startFakeApi(), startFakeApi()]);
  fake.reply = providerReply;
  org = await createTestOrg(api.url);
  client = org.dev.client;
});
afterAll(async () => {
  await Promise.all([api?.close(), fake?.close(), receiver?.close()]);
});
beforeEach(() => {
  fake.reply = providerReply;
});

const receiptUrl = (channel: string, id: string, o: TestOrg = org) =>
  `/webhooks/organizations/${o.id}/environments/${o.dev.id}/${channel}/${id}`;

function postReceipt(path: string, rawBody: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return client.request('POST', path, { rawBody, headers: { authorization: '', 'content-type': 'application/json', ...headers } });
}

async function integration(body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/v1/integrations', { active: true, identifier: `${body.providerId}-${rand()}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const primary = await client.post(`/v1/integrations/${res.body.data._id}/set-primary`, {});
  expect(primary.status, JSON.stringify(primary.body)).toBeLessThan(300);
  return res.body.data;
}

/** Sends one message of `channel` through the pipeline; the stored message. */
async function sentMessage(channel: 'email' | 'sms'): Promise<any> {
  const workflowId = `wf-${rand()}`;
  const controlValues = channel === 'email' ? { subject: 'Hi', body: '<p>Hi</p>' } : { body: 'Hi' };
  const created = await client.post('/v2/workflows', {
    name: workflowId,
    workflowId,
    active: true,
    steps: [{ name: 'Step', stepId: 'step', type: channel, controlValues }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const subscriberId = `sub-${rand()}`;
  const txid = await triggerWith(client, {
    name: workflowId,
    to: { subscriberId, email: `${subscriberId}@example.test`, phone: '+15550100' },
  });
  const item = await settledOne(client, txid);
  expect(item.jobs[0].status, JSON.stringify(item.jobs[0])).toBe('completed');
  const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=${channel}&limit=10`);
  const [message] = res.body.data;
  expect(message.identifier).toEqual(expect.any(String));
  return { ...message, transactionId: txid };
}

async function webhookDetails(message: any): Promise<any[]> {
  const item = await settledOne(client, message.transactionId);
  return item.jobs[0].executionDetails.filter((d: any) => d.source === 'Webhook');
}

async function messageNow(message: any): Promise<any> {
  const res = await client.get(`/v1/messages?subscriberId=${message.subscriberId}&channel=${message.channel}&limit=10`);
  return res.body.data.find((m: any) => m._id === message._id);
}

/** An endpoint of the environment for `types`; its deliveries verified with `standardwebhooks`. */
async function endpoint(types: string[]) {
  const path = `/hook-${rand()}`;
  const res = await client.post('/v2/webhooks/endpoints', { url: `${receiver.url}${path}`, eventTypes: types });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const hook = new Webhook(res.body.secret as string);
  return () =>
    receiver.requests
      .filter((r) => r.path === path)
      .map(
        (r) =>
          hook.verify(r.text, {
            'webhook-id': String(r.headers['svix-id']),
            'webhook-timestamp': String(r.headers['svix-timestamp']),
            'webhook-signature': String(r.headers['svix-signature']),
          }) as any,
      );
}

// ---- SES through SNS ------------------------------------------------------------------------------

/** An SNS message as SNS signs it (SignatureVersion 2: SHA256withRSA) with the test certificate's key. */
function snsMessage(fields: Record<string, string>, certUrl = `${fake.url}${CERT_PATH}`): Record<string, string> {
  const m: Record<string, string> = {
    MessageId: crypto.randomUUID(),
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-events',
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: certUrl,
    ...fields,
  };
  const order =
    m.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const signer = createSign('RSA-SHA256');
  signer.update(
    order
      .filter((k) => m[k] !== undefined)
      .map((k) => `${k}\n${m[k]}\n`)
      .join(''),
  );
  return { ...m, Signature: signer.sign(SNS_KEY, 'base64') };
}

const sesEvent = (name: string, messageId: string) =>
  fixture(name).replaceAll('EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000', messageId);

describe('Amazon SES through SNS', () => {
  let ses: any;
  beforeAll(async () => {
    ses = await integration({
      providerId: 'ses',
      channel: 'email',
      credentials: {
        apiKey: 'AKIDTEST',
        secretKey: 'shh',
        region: 'us-east-1',
        from: 'team@acme.test',
        senderName: 'Acme',
        baseUrl: fake.url,
      },
    });
  });

  it('confirms the SNS subscription once the confirmation is signed by SNS', async () => {
    const confirm = snsMessage({
      Type: 'SubscriptionConfirmation',
      Token: 'tok-1',
      Message: 'You have chosen to subscribe to the topic',
      SubscribeURL: `${fake.url}/confirm-subscription?Token=tok-1`,
    });
    const res = await postReceipt(receiptUrl('email', 'ses'), JSON.stringify(confirm), {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': 'SubscriptionConfirmation',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([]);
    expect(fake.requests.filter((r) => r.path === '/confirm-subscription').map((r) => r.query.get('Token'))).toEqual(['tok-1']);
  });

  it('records a delivery: a Webhook detail, the message delivered, message.delivered sent once; a redelivery adds nothing', async () => {
    const received = await endpoint(['message.delivered']);
    const message = await sentMessage('email');
    const body = JSON.stringify(snsMessage({ Type: 'Notification', Message: sesEvent('ses-delivery.json', message.identifier) }));

    const res = await postReceipt(receiptUrl('email', 'ses'), body, { 'content-type': 'text/plain; charset=UTF-8' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    // SNS redelivers the same message (same MessageId, same signature).
    const again = await postReceipt(receiptUrl('email', 'ses'), body, { 'content-type': 'text/plain; charset=UTF-8' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual([]);

    const details = await webhookDetails(message);
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({
      source: 'Webhook',
      status: 'Success',
      providerId: 'ses',
      detail: '250 2.6.0 Message received - (delivered)',
      createdAt: '2016-10-19T23:21:04.133Z',
    });
    expect(JSON.parse(details[0].raw)).toMatchObject({ eventType: 'Delivery', mail: { messageId: message.identifier } });
    expect(await messageNow(message)).toMatchObject({
      status: 'sent',
      deliveryStatus: 'delivered',
      deliveryStatusAt: '2016-10-19T23:21:04.133Z',
    });

    await vi.waitFor(() => expect(received().map((e) => e.data.object._id)).toContain(message._id), WAIT);
    const [event] = received().filter((e) => e.data.object._id === message._id);
    expect(event).toMatchObject({
      type: 'message.delivered',
      object: 'message',
      data: { object: { deliveryStatus: 'delivered', providerResponseId: message.identifier } },
    });
  });

  it('records a bounce: the message fails with the SMTP answer and message.failed is sent', async () => {
    const received = await endpoint(['message.failed']);
    const message = await sentMessage('email');
    const res = await postReceipt(
      receiptUrl('email', ses._id),
      JSON.stringify(snsMessage({ Type: 'Notification', Message: sesEvent('ses-bounce.json', message.identifier) })),
    );
    expect(res.body).toEqual([{ id: message._id, event: 'bounced' }]);
    expect((await webhookDetails(message))[0]).toMatchObject({ status: 'Failed', detail: 'smtp; 550 5.1.1 user unknown - (bounced)' });
    expect(await messageNow(message)).toMatchObject({
      status: 'error',
      errorId: 'provider_bounced',
      errorText: 'smtp; 550 5.1.1 user unknown',
      deliveryStatus: 'bounced',
    });
    await vi.waitFor(
      () =>
        expect(received().find((e) => e.data.object._id === message._id)).toMatchObject({
          type: 'message.failed',
          data: { error: { message: 'smtp; 550 5.1.1 user unknown' } },
        }),
      WAIT,
    );
  });

  it('refuses a forged message, a certificate off SNS hosts, and a body that is no SNS message (401), recording nothing', async () => {
    const message = await sentMessage('email');
    const signed = snsMessage({ Type: 'Notification', Message: sesEvent('ses-delivery.json', message.identifier) });
    const forged = { ...signed, Message: sesEvent('ses-bounce.json', message.identifier) };
    const offHost = snsMessage(
      { Type: 'Notification', Message: sesEvent('ses-delivery.json', message.identifier) },
      'https://attacker.example/cert.pem',
    );
    for (const body of [JSON.stringify(forged), JSON.stringify(offHost), '{"Type":"Notification"}', 'not json']) {
      const res = await postReceipt(receiptUrl('email', 'ses'), body);
      expect(res.status, body).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    expect(await webhookDetails(message)).toEqual([]);
    expect((await messageNow(message)).deliveryStatus).toBeUndefined();
  });

  it('acknowledges a receipt of a message it does not know (200, nothing recorded)', async () => {
    const res = await postReceipt(
      receiptUrl('email', 'ses'),
      JSON.stringify(snsMessage({ Type: 'Notification', Message: sesEvent('ses-delivery.json', 'unknown-id') })),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

// ---- SendGrid -------------------------------------------------------------------------------------

describe('SendGrid signed event webhook', () => {
  const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const verificationKey = keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const signed = (body: string, timestamp = String(Math.floor(Date.now() / 1000))) => ({
    'x-twilio-email-event-webhook-timestamp': timestamp,
    'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), keys.privateKey).toString('base64'),
  });
  let sendgrid: any;
  beforeAll(async () => {
    sendgrid = await integration({
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.test', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: verificationKey },
    });
  });

  it('records processed and delivered once each, through the integration id', async () => {
    const received = await endpoint(['message.delivered']);
    const message = await sentMessage('email');
    const events = JSON.parse(fixture('sendgrid-events.json')) as any[];
    const body = JSON.stringify(
      events.map((e, i) => ({
        ...e,
        sg_event_id: `evt-${rand()}-${i}`,
        sg_message_id: `${message.identifier}.filterdrecv-p3las1-5bf6bf5b8d-mt8lg-18-5A33BB5F-5.0`,
      })),
    );
    const res = await postReceipt(receiptUrl('email', sendgrid._id), body, signed(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([
      { id: message._id, event: 'sent' },
      { id: message._id, event: 'delivered' },
    ]);
    const replay = await postReceipt(receiptUrl('email', 'sendgrid'), body, signed(body));
    expect(replay.body).toEqual([]);
    expect((await webhookDetails(message)).map((d) => [d.status, d.detail])).toEqual([
      ['Success', 'Provider reported the message sent'],
      ['Success', '250 OK - (delivered)'],
    ]);
    expect(await messageNow(message)).toMatchObject({ deliveryStatus: 'delivered' });
    await vi.waitFor(() => expect(received().filter((e) => e.data.object._id === message._id)).toHaveLength(1), WAIT);
  });

  it('refuses a wrong signature, a missing one, and one for another body (401)', async () => {
    const body = fixture('sendgrid-events.json');
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const foreign = {
      'x-twilio-email-event-webhook-timestamp': timestamp,
      'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), other.privateKey).toString('base64'),
    };
    for (const headers of [foreign, {}, signed('[]')]) {
      const res = await postReceipt(receiptUrl('email', 'sendgrid'), body, headers);
      expect(res.status).toBe(401);
    }
  });

  it('refuses receipts when the integration has inbound webhooks turned off (403)', async () => {
    const update = await client.put(`/v1/integrations/${sendgrid._id}`, {
      configurations: { inboundWebhookEnabled: false, inboundWebhookSigningKey: verificationKey },
    });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    const body = fixture('sendgrid-events.json');
    const res = await postReceipt(receiptUrl('email', sendgrid._id), body, signed(body));
    expect(res.status).toBe(403);
    await client.put(`/v1/integrations/${sendgrid._id}`, {
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: verificationKey },
    });
  });
});

// ---- Mailgun --------------------------------------------------------------------------------------

describe('Mailgun webhooks', () => {
  const signingKey = 'key-mailgun-signing';
  beforeAll(async () => {
    await integration({
      providerId: 'mailgun',
      channel: 'email',
      credentials: { apiKey: 'key-1', user: 'api', domain: 'mg.acme.test', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: signingKey },
    });
  });

  const bodyFor = (messageId: string, key = signingKey) => {
    const payload = JSON.parse(fixture('mailgun-delivered.json'));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const token = rand() + rand();
    payload.signature = {
      timestamp,
      token,
      signature: createHmac('sha256', key)
        .update(timestamp + token)
        .digest('hex'),
    };
    payload['event-data'].id = `ev-${rand()}`;
    payload['event-data'].message.headers['message-id'] = messageId.replace(/^<|>$/g, '');
    return JSON.stringify(payload);
  };

  it('records a delivery by the message id without its angle brackets', async () => {
    const message = await sentMessage('email');
    const body = bodyFor(message.identifier);
    const res = await postReceipt(receiptUrl('email', 'mailgun'), body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(receiptUrl('email', 'mailgun'), body)).body).toEqual([]);
    expect(await webhookDetails(message)).toHaveLength(1);
    expect(await messageNow(message)).toMatchObject({ deliveryStatus: 'delivered' });
  });

  it('refuses a signature made with another key (401)', async () => {
    const res = await postReceipt(receiptUrl('email', 'mailgun'), bodyFor('<x@y>', 'another-key'));
    expect(res.status).toBe(401);
  });
});

// ---- Resend, Postmark ------------------------------------------------------------------------------

describe('Resend webhooks (Svix-signed)', () => {
  const secret = `whsec_${Buffer.from('resend-test-secret-0123456789ab').toString('base64')}`;
  beforeAll(async () => {
    await integration({
      providerId: 'resend',
      channel: 'email',
      credentials: { apiKey: 're_test', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: secret },
    });
  });
  const svix = (body: string, id: string, at = new Date(), key = secret) => ({
    'svix-id': id,
    'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
    'svix-signature': new Webhook(key).sign(id, at, body),
  });

  it('records a bounce once; refuses a forged signature and one replayed after the tolerance (401)', async () => {
    const message = await sentMessage('email');
    const event = JSON.parse(fixture('resend-bounced.json'));
    event.data.email_id = message.identifier;
    const body = JSON.stringify(event);
    const id = `msg_${rand()}`;
    const res = await postReceipt(receiptUrl('email', 'resend'), body, svix(body, id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'bounced' }]);
    expect((await postReceipt(receiptUrl('email', 'resend'), body, svix(body, id))).body).toEqual([]);
    expect(await messageNow(message)).toMatchObject({ status: 'error', deliveryStatus: 'bounced' });

    const otherKey = `whsec_${Buffer.from('another-secret-0123456789abcdef').toString('base64')}`;
    const stale = new Date(Date.now() - 3_600_000);
    for (const headers of [svix(body, id, new Date(), otherKey), svix(body, id, stale), {}]) {
      expect((await postReceipt(receiptUrl('email', 'resend'), body, headers)).status).toBe(401);
    }
    expect(await webhookDetails(message)).toHaveLength(1);
  });
});

describe('Postmark webhooks (Basic auth in the webhook URL)', () => {
  beforeAll(async () => {
    await integration({
      providerId: 'postmark',
      channel: 'email',
      credentials: { apiKey: 'pm-token', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: 'pm-hook-password' },
    });
  });
  const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}` });

  it('records a delivery with the right credentials, refuses wrong or missing ones (401)', async () => {
    const message = await sentMessage('email');
    const body = fixture('postmark-delivery.json').replace('00000000-0000-0000-0000-000000000000', message.identifier);
    expect((await postReceipt(receiptUrl('email', 'postmark'), body, basic('wrong'))).status).toBe(401);
    expect((await postReceipt(receiptUrl('email', 'postmark'), body)).status).toBe(401);
    const res = await postReceipt(receiptUrl('email', 'postmark'), body, basic('pm-hook-password'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(receiptUrl('email', 'postmark'), body, basic('pm-hook-password'))).body).toEqual([]);
    expect((await webhookDetails(message))[0]).toMatchObject({
      status: 'Success',
      detail: 'Test delivery webhook details - (delivered)',
      createdAt: '2019-11-05T16:33:54.907Z',
    });
  });
});

describe('Mailjet webhooks (Basic auth in the webhook URL, grouped events)', () => {
  beforeAll(async () => {
    await integration({
      providerId: 'mailjet',
      channel: 'email',
      credentials: { apiKey: 'mj-key', secretKey: 'mj-secret', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: 'mj-hook-password' },
    });
  });
  const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`mailjet:${password}`).toString('base64')}` });

  it('finds the message by the MessageUUID its send stored, records each event once, refuses wrong credentials (401)', async () => {
    const message = await sentMessage('email');
    expect(message.identifier).toMatch(/^[0-9a-f-]{36}$/);
    const body = fixture('mailjet-events.json').replaceAll('00000000-0000-0000-0000-000000000000', message.identifier);
    expect((await postReceipt(receiptUrl('email', 'mailjet'), body, basic('wrong'))).status).toBe(401);
    const res = await postReceipt(receiptUrl('email', 'mailjet'), body, basic('mj-hook-password'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([
      { id: message._id, event: 'delivered' },
      { id: message._id, event: 'bounced' },
    ]);
    expect((await postReceipt(receiptUrl('email', 'mailjet'), body, basic('mj-hook-password'))).body).toEqual([]);
    const details = await webhookDetails(message);
    expect(details.map((d: any) => [d.status, d.createdAt])).toEqual([
      ['Success', '2015-06-03T12:19:09.000Z'],
      ['Failed', '2015-06-03T12:19:49.000Z'],
    ]);
    expect((await messageNow(message)).deliveryStatus).toBe('bounced');
  });
});

describe('Brevo webhooks (Basic auth)', () => {
  beforeAll(async () => {
    await integration({
      providerId: 'sendinblue',
      channel: 'email',
      credentials: { apiKey: 'xkeysib-test', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: 'brevo-hook-password' },
    });
  });

  it('records a delivery with the right credentials, once; refuses wrong ones (401)', async () => {
    const message = await sentMessage('email');
    const body = fixture('brevo-delivered.json').replace('<201798300811.5787683@relay.domain.com>', message.identifier);
    const auth = (password: string) => ({ authorization: `Basic ${Buffer.from(`brevo:${password}`).toString('base64')}` });
    expect((await postReceipt(receiptUrl('email', 'sendinblue'), body, auth('nope'))).status).toBe(401);
    const res = await postReceipt(receiptUrl('email', 'sendinblue'), body, auth('brevo-hook-password'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(receiptUrl('email', 'sendinblue'), body, auth('brevo-hook-password'))).body).toEqual([]);
    expect(await webhookDetails(message)).toHaveLength(1);
    expect(await messageNow(message)).toMatchObject({ deliveryStatus: 'delivered' });
  });
});

// ---- Telnyx ---------------------------------------------------------------------------------------

describe('Telnyx webhooks (Ed25519)', () => {
  const keys = generateKeyPairSync('ed25519');
  const publicKey = Buffer.from(keys.publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
  const signedBy = (body: string, key = keys.privateKey, at = Math.floor(Date.now() / 1000)) => ({
    'telnyx-timestamp': String(at),
    'telnyx-signature-ed25519': sign(null, Buffer.from(`${at}|${body}`), key).toString('base64'),
  });
  beforeAll(async () => {
    await integration({
      providerId: 'telnyx',
      channel: 'sms',
      credentials: { apiKey: 'KEY1', messageProfileId: 'prof-1', from: '+15550199', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: publicKey },
    });
  });

  it('records a delivery once; refuses another key, a stale timestamp and no signature (401)', async () => {
    const message = await sentMessage('sms');
    const event = JSON.parse(fixture('telnyx-finalized.json'));
    event.data.id = crypto.randomUUID();
    event.data.payload.id = message.identifier;
    const body = JSON.stringify(event);
    const res = await postReceipt(receiptUrl('sms', 'telnyx'), body, signedBy(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(receiptUrl('sms', 'telnyx'), body, signedBy(body))).body).toEqual([]);
    for (const headers of [
      signedBy(body, generateKeyPairSync('ed25519').privateKey),
      signedBy(body, keys.privateKey, Math.floor(Date.now() / 1000) - 3600),
      {},
    ]) {
      expect((await postReceipt(receiptUrl('sms', 'telnyx'), body, headers)).status).toBe(401);
    }
    expect((await webhookDetails(message)).map((d) => [d.status, d.createdAt])).toEqual([['Success', '2019-12-09T20:16:07.588Z']]);
    expect(await messageNow(message)).toMatchObject({ deliveryStatus: 'delivered' });
  });
});

describe('Infobip delivery reports (Basic auth)', () => {
  beforeAll(async () => {
    await integration({
      providerId: 'infobip-sms',
      channel: 'sms',
      credentials: { apiKey: 'ib-key', from: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: 'ib-hook-password' },
    });
  });

  it('records a delivered report once; refuses missing credentials (401)', async () => {
    const message = await sentMessage('sms');
    const body = fixture('infobip-reports.json').replace('MESSAGE-ID-123-xyz', message.identifier);
    const auth = { authorization: `Basic ${Buffer.from('infobip:ib-hook-password').toString('base64')}` };
    expect((await postReceipt(receiptUrl('sms', 'infobip-sms'), body)).status).toBe(401);
    const res = await postReceipt(receiptUrl('sms', 'infobip-sms'), body, auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(receiptUrl('sms', 'infobip-sms'), body, auth)).body).toEqual([]);
    expect((await webhookDetails(message)).map((d) => [d.status, d.detail, d.createdAt])).toEqual([
      ['Success', 'Message delivered to handset - (delivered)', '2019-11-09T16:00:00.000Z'],
    ]);
  });
});

describe('Plivo status callbacks (X-Plivo-Signature-V3)', () => {
  const token = 'plivo-auth-token';
  beforeAll(async () => {
    await integration({
      providerId: 'plivo',
      channel: 'sms',
      credentials: { accountSid: 'MAXXXXXXXXXXXXXXXXXX', token, from: '+15550199', baseUrl: fake.url },
    });
  });
  // Plivo's validateV3Signature for a POST: URL, `?`, sorted name+value pairs, `.`, the nonce.
  const plivoSignature = (url: string, params: URLSearchParams, nonce: string, key = token) =>
    createHmac('sha256', key)
      .update(
        `${url}?${[...params.keys()]
          .sort()
          .map((k) => k + params.get(k))
          .join('')}.${nonce}`,
      )
      .digest('base64');

  it('records delivered once; refuses another token or a missing nonce (401)', async () => {
    const message = await sentMessage('sms');
    const path = receiptUrl('sms', 'plivo');
    const params = new URLSearchParams({
      From: '+15550199',
      MessageUUID: message.identifier,
      Status: 'delivered',
      To: '+15550100',
      TotalAmount: '0.00650',
      TotalRate: '0.00650',
      Units: '1',
      ErrorCode: '000',
    });
    const nonce = '05429567804466091622';
    const headers = (signature: string) => ({
      'content-type': 'application/x-www-form-urlencoded',
      'x-plivo-signature-v3': signature,
      'x-plivo-signature-v3-nonce': nonce,
    });
    expect((await postReceipt(path, params.toString(), headers(plivoSignature(`${api.url}${path}`, params, nonce, 'wrong')))).status).toBe(
      401,
    );
    expect(
      (await postReceipt(path, params.toString(), { 'x-plivo-signature-v3': plivoSignature(`${api.url}${path}`, params, nonce) })).status,
    ).toBe(401);
    // A token being rotated: two signatures, one matches.
    const both = `${plivoSignature(`${api.url}${path}`, params, nonce, 'old-token')},${plivoSignature(`${api.url}${path}`, params, nonce)}`;
    const res = await postReceipt(path, params.toString(), headers(both));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(path, params.toString(), headers(both))).body).toEqual([]);
    expect((await webhookDetails(message)).map((d) => [d.status, d.detail])).toEqual([
      ['Success', 'Provider reported the message delivered'],
    ]);
  });
});

describe('Vonage delivery receipts (signed webhooks)', () => {
  const secret = 'vonage-signature-secret';
  beforeAll(async () => {
    await integration({
      providerId: 'nexmo',
      channel: 'sms',
      credentials: { apiKey: 'abcd1234', secretKey: 'shh', from: 'Acme', baseUrl: fake.url },
      configurations: { inboundWebhookSigningKey: secret },
    });
  });
  // Vonage's md5hash: md5 of `&name=value` pairs sorted by name, then the secret; or their HMAC-SHA256.
  const signed = (params: Record<string, string>, how: 'md5hash' | 'sha256', key = secret) => {
    const text = Object.keys(params)
      .sort()
      .map((k) => `&${k}=${params[k]!.replace(/[&=]/g, '_')}`)
      .join('');
    const sig =
      how === 'md5hash'
        ? createHash('md5')
            .update(text + key)
            .digest('hex')
        : createHmac('sha256', key).update(text).digest('hex').toUpperCase();
    return new URLSearchParams({ ...params, sig }).toString();
  };

  it('checks the Vonage signature against the documented test vector', () => {
    expect(createHash('md5').update('&a=1&b=2&timestamp=1461605396secret').digest('hex')).toBe('6af838ef94998832dbfc29020b564830');
  });

  it('records delivered once (md5hash or HMAC-SHA256), refuses another secret or no signature (401)', async () => {
    const message = await sentMessage('sms');
    const path = receiptUrl('sms', 'nexmo');
    const dlr = {
      msisdn: '15550100',
      to: 'Acme',
      'network-code': '12345',
      messageId: message.identifier,
      price: '0.03330000',
      status: 'delivered',
      scts: '2001011400',
      'err-code': '0',
      'api-key': 'abcd1234',
      'message-timestamp': '2020-01-01 12:00:00',
      timestamp: String(Math.floor(Date.now() / 1000)),
      nonce: crypto.randomUUID(),
    };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await postReceipt(path, signed(dlr, 'md5hash', 'other'), form)).status).toBe(401);
    expect((await postReceipt(path, new URLSearchParams(dlr).toString(), form)).status).toBe(401);
    const res = await postReceipt(path, signed(dlr, 'md5hash'), form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([{ id: message._id, event: 'delivered' }]);
    expect((await postReceipt(path, signed(dlr, 'sha256'), form)).body).toEqual([]);
    expect((await webhookDetails(message)).map((d) => [d.status, d.createdAt])).toEqual([['Success', '2020-01-01T12:00:00.000Z']]);
    expect(await messageNow(message)).toMatchObject({ deliveryStatus: 'delivered' });
  });
});

// ---- Twilio ---------------------------------------------------------------------------------------

describe('Twilio status callbacks', () => {
  const token = 'tw-auth-token';
  beforeAll(async () => {
    await integration({
      providerId: 'twilio',
      channel: 'sms',
      credentials: { accountSid: 'AC123', token, from: '+15550199', baseUrl: fake.url },
    });
  });

  /** Twilio's signature: HMAC-SHA1 of the URL and the sorted parameters, base64. */
  const twilioSignature = (url: string, params: URLSearchParams, key = token) =>
    createHmac('sha1', key)
      .update(
        url +
          [...params.keys()]
            .sort()
            .map((k) => k + params.get(k))
            .join(''),
      )
      .digest('base64');

  const callback = (sid: string, status: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({
      SmsSid: sid,
      SmsStatus: status,
      MessageStatus: status,
      To: '+15550100',
      MessageSid: sid,
      AccountSid: 'AC123',
      From: '+15550199',
      ApiVersion: '2010-04-01',
      ...extra,
    });

  it('records sent then undelivered (the message fails, with the error code), each once', async () => {
    const message = await sentMessage('sms');
    const path = receiptUrl('sms', 'twilio');
    const url = `${api.url}${path}`;
    for (const params of [callback(message.identifier, 'sent'), callback(message.identifier, 'undelivered', { ErrorCode: '30003' })]) {
      const body = params.toString();
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(url, params) };
      const res = await postReceipt(path, body, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await postReceipt(path, body, headers)).body).toEqual([]);
    }
    expect((await webhookDetails(message)).map((d) => [d.status, d.detail])).toEqual([
      ['Success', 'Provider reported the message sent'],
      ['Failed', 'Twilio error 30003 - (undelivered)'],
    ]);
    expect(await messageNow(message)).toMatchObject({ status: 'error', deliveryStatus: 'undelivered', errorText: 'Twilio error 30003' });
  });

  it('refuses a signature with another token or over another URL (401)', async () => {
    const params = callback('SMunknown', 'delivered');
    const path = receiptUrl('sms', 'twilio');
    for (const signature of [
      twilioSignature(`${api.url}${path}`, params, 'wrong'),
      twilioSignature(`https://elsewhere.example${path}`, params),
    ]) {
      const res = await postReceipt(path, params.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      });
      expect(res.status).toBe(401);
    }
  });
});

// ---- the route --------------------------------------------------------------------------------------

describe('the receipt route', () => {
  it('answers 404 for an unknown integration or provider, and one of another environment', async () => {
    const other = await createTestOrg(api.url);
    for (const path of [
      receiptUrl('email', 'sparkpost'),
      receiptUrl('sms', 'ses'),
      receiptUrl('email', 'ses', other),
      receiptUrl('email', '0123456789abcdef01234567'),
    ]) {
      const res = await postReceipt(path, '{}');
      expect(res.status, path).toBe(404);
    }
  });

  it('refuses a path that is not an email or sms receipt URL (422)', async () => {
    const res = await postReceipt(`/webhooks/organizations/${org.id}/environments/${org.dev.id}/push/fcm`, '{}');
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('channel');
  });
});
