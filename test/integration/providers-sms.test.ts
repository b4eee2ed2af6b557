import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { PHONE, basicAuthOf as basic, smsDelivery as sms } from '../support/deliveries.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';

// SMS providers against a local HTTP server that checks each API's exact request and answers
// success, 4xx, 5xx or nothing in time; called directly through the registry, then end to end
// through the API and the pipeline, including which integration a trigger selects.

// The fake API, with short timeouts and retry waits for this worker's direct provider calls.
const fake = fakeApiForFile();

describe('Twilio', () => {
  const credentials = () => ({ accountSid: 'AC123', token: 'tw-token', baseUrl: fake.url });

  it('posts the message form with Basic auth', async () => {
    fake.reply = () => ({ status: 201, body: { sid: 'SM1', status: 'queued' } });
    const result = await send(sms('twilio', credentials()));
    expect(result).toMatchObject({ id: 'SM1', raw: { sid: 'SM1', status: 'queued' } });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/2010-04-01/Accounts/AC123/Messages.json' });
    expect(request!.headers.authorization).toBe(basic('AC123', 'tw-token'));
    expect(Object.fromEntries(request!.form)).toEqual({ To: PHONE, From: '+15550199', Body: 'Your code is 123' });
  });

  it('sends from a Messaging Service, and takes the sender from the overrides first', async () => {
    fake.reply = () => ({ status: 201, body: { sid: 'SM2' } });
    await send(sms('twilio', { ...credentials(), from: 'MG0001' }));
    await send(sms('twilio', credentials(), { overrides: { from: '+15550111' } }));
    expect(fake.requests.map((r) => [r.form.get('MessagingServiceSid'), r.form.get('From')])).toEqual([
      ['MG0001', null],
      [null, '+15550111'],
    ]);
  });

  it('a 4xx is final, with the provider message', async () => {
    fake.reply = () => ({ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    const error = await failure(send(sms('twilio', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe("Twilio answered 400: The 'To' number is not a valid phone number.");
    expect(error.raw).toMatchObject({ status: 400, body: { code: 21211 } });
  });
});

describe('Amazon SNS (Publish through the SDK)', () => {
  const credentials = () => ({ apiKey: 'AKIDSNS', secretKey: 'shh', region: 'us-east-1', baseUrl: fake.url });
  const published =
    '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>sns-1</MessageId></PublishResult>' +
    '<ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></PublishResponse>';
  const xml = { 'content-type': 'text/xml' };

  it('publishes to the phone number, the sender id as a message attribute', async () => {
    fake.reply = () => ({ status: 200, headers: xml, body: published });
    const result = await send(sms('sns', credentials()));
    expect(result.id).toBe('sns-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/' });
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDSNS\/\d{8}\/us-east-1\/sns\/aws4_request/);
    expect(Object.fromEntries(request!.form)).toMatchObject({
      Action: 'Publish',
      PhoneNumber: PHONE,
      Message: 'Your code is 123',
      'MessageAttributes.entry.1.Name': 'AWS.SNS.SMS.SenderID',
      'MessageAttributes.entry.1.Value.DataType': 'String',
      'MessageAttributes.entry.1.Value.StringValue': '+15550199',
    });
  });

  it('a refused parameter is final; throttling and 5xx are tried three times', async () => {
    fake.reply = () => ({
      status: 400,
      headers: xml,
      body:
        '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber</Message></Error>' +
        '<RequestId>r-2</RequestId></ErrorResponse>',
    });
    const refused = await failure(send(sms('sns', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(refused.raw).toMatchObject({ status: 400, error: 'InvalidParameterException', message: 'Invalid parameter: PhoneNumber' });

    fake.reset();
    fake.reply = () => ({
      status: 400,
      headers: xml,
      body:
        '<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error>' +
        '<RequestId>r-3</RequestId></ErrorResponse>',
    });
    const throttled = await failure(send(sms('sns', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(throttled.raw).toMatchObject({ status: 400, error: 'Throttling', attempts: 3 });
  });
});

describe('HTTP SMS APIs', () => {
  it('Vonage (nexmo): form with key and secret; a refused message (status != 0) fails', async () => {
    fake.reply = () => ({ status: 200, body: { 'message-count': '1', messages: [{ to: '15550100', 'message-id': 'vn-1', status: '0' }] } });
    const result = await send(sms('nexmo', { apiKey: 'vk', secretKey: 'vs', baseUrl: fake.url }, { content: 'Grüße' }));
    expect(result.id).toBe('vn-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/sms/json' });
    expect(Object.fromEntries(request!.form)).toEqual({
      api_key: 'vk',
      api_secret: 'vs',
      from: '15550199',
      to: '15550100',
      text: 'Grüße',
      type: 'unicode',
    });

    fake.reply = () => ({ status: 200, body: { 'message-count': '1', messages: [{ status: '4', 'error-text': 'Bad Credentials' }] } });
    const error = await failure(send(sms('nexmo', { apiKey: 'vk', secretKey: 'wrong', baseUrl: fake.url })));
    expect(error.message).toBe('Vonage refused the message: Bad Credentials');
  });

  it('Plivo: JSON message with Basic auth', async () => {
    fake.reply = () => ({ status: 202, body: { api_id: 'a-1', message: 'message(s) queued', message_uuid: ['pl-1'] } });
    const result = await send(sms('plivo', { accountSid: 'MA123', token: 'pl-token', baseUrl: fake.url }));
    expect(result.id).toBe('pl-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/Account/MA123/Message/' });
    expect(request!.headers.authorization).toBe(basic('MA123', 'pl-token'));
    expect(request!.json).toEqual({ src: '+15550199', dst: PHONE, text: 'Your code is 123' });
  });

  it('Telnyx: messages with Bearer auth and the messaging profile', async () => {
    fake.reply = () => ({ status: 200, body: { data: { id: 'tx-1', record_type: 'message' } } });
    const result = await send(sms('telnyx', { apiKey: 'KEY1', messageProfileId: 'prof-1', baseUrl: fake.url }));
    expect(result.id).toBe('tx-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/messages' });
    expect(request!.headers.authorization).toBe('Bearer KEY1');
    expect(request!.json).toEqual({ from: '+15550199', to: PHONE, text: 'Your code is 123', messaging_profile_id: 'prof-1' });
  });

  it('Telnyx: a 5xx is tried three times; an answer that never comes too', async () => {
    const credentials = { apiKey: 'KEY1', messageProfileId: 'prof-1', baseUrl: fake.url };
    fake.reply = () => ({ status: 503, body: { errors: [{ title: 'Service unavailable' }] } });
    const unavailable = await failure(send(sms('telnyx', credentials)));
    expect(fake.requests).toHaveLength(3);
    expect(unavailable.message).toBe('Telnyx answered 503: Service unavailable');
    expect(unavailable.raw).toMatchObject({ status: 503, attempts: 3 });

    fake.reset();
    fake.reply = () => ({ status: 200, body: { data: { id: 'late' } }, delayMs: 2_000 });
    const late = await failure(send(sms('telnyx', credentials)));
    expect(fake.requests).toHaveLength(3);
    expect(late.raw).toEqual({ error: 'timeout', attempts: 3 });
  });

  it('MessageBird: messages with the access key', async () => {
    fake.reply = () => ({ status: 201, body: { id: 'mb-1', recipients: { totalCount: 1 } } });
    const result = await send(sms('messagebird', { accessKey: 'live_key', baseUrl: fake.url }));
    expect(result.id).toBe('mb-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/messages' });
    expect(request!.headers.authorization).toBe('AccessKey live_key');
    expect(request!.json).toEqual({ originator: '+15550199', recipients: [PHONE], body: 'Your code is 123' });
  });

  it('Infobip (infobip-sms): advanced text message at the account base URL', async () => {
    fake.reply = () => ({
      status: 200,
      body: { bulkId: 'b-1', messages: [{ to: PHONE, messageId: 'ib-1', status: { groupName: 'PENDING' } }] },
    });
    const result = await send(sms('infobip-sms', { apiKey: 'ib-key', baseUrl: fake.url }));
    expect(result.id).toBe('ib-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/sms/2/text/advanced' });
    expect(request!.headers.authorization).toBe('App ib-key');
    expect(request!.json).toEqual({ messages: [{ from: '+15550199', destinations: [{ to: PHONE }], text: 'Your code is 123' }] });
  });

  it('generic-sms: key headers, the configured id path, and token authentication', async () => {
    const credentials = {
      baseUrl: `${fake.url}/send-sms`,
      apiKeyRequestHeader: 'x-api-key',
      apiKey: 'gk',
      secretKeyRequestHeader: 'x-api-secret',
      secretKey: 'gs',
      idPath: 'result.messageId',
      datePath: 'result.at',
    };
    fake.reply = () => ({ status: 200, body: { result: { messageId: 'g-1', at: '2030-01-01T00:00:00Z' } } });
    const result = await send(sms('generic-sms', credentials, { overrides: { customData: { ref: 7 } } }));
    expect(result).toEqual({
      id: 'g-1',
      raw: { date: '2030-01-01T00:00:00Z', body: { result: { messageId: 'g-1', at: '2030-01-01T00:00:00Z' } } },
    });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/send-sms' });
    expect(request!.headers).toMatchObject({ 'x-api-key': 'gk', 'x-api-secret': 'gs' });
    expect(request!.json).toEqual({
      to: PHONE,
      content: 'Your code is 123',
      from: '+15550199',
      sender: '+15550199',
      customData: { ref: 7 },
    });

    fake.reset();
    fake.reply = (r) =>
      r.path === '/auth'
        ? { status: 200, body: { data: { 'x-session': 'tok-1' } } }
        : { status: 200, body: { result: { messageId: 'g-2' } } };
    const byToken = await send(
      sms('generic-sms', { ...credentials, authenticateByToken: true, domain: `${fake.url}/auth`, authenticationTokenKey: 'x-session' }),
    );
    expect(byToken.id).toBe('g-2');
    expect(fake.requests.map((r) => r.path)).toEqual(['/auth', '/send-sms']);
    expect(fake.requests[0]!.headers['x-api-key']).toBe('gk');
    expect(fake.requests[1]!.headers['x-session']).toBe('tok-1');
    expect(fake.requests[1]!.headers['x-api-key']).toBeUndefined();
  });
});

// ---- through the API ----------------------------------------------------------------------------

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function createIntegration(client: ApiClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/v1/integrations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function smsWorkflow(client: ApiClient, body: string): Promise<string> {
  const workflowId = `wf-${rand()}`;
  const res = await client.post('/v2/workflows', {
    name: workflowId,
    workflowId,
    active: true,
    steps: [{ name: 'Text', stepId: 'text', type: 'sms', controlValues: { body } }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return workflowId;
}

async function smsOf(client: ApiClient, subscriberId: string): Promise<any[]> {
  const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=sms&limit=10`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('end to end: selection and delivery', () => {
  let env: TestEnv;
  let primary: any;
  let forAcme: any;
  let named: any;
  let wf: string;

  beforeAll(async () => {
    env = (await createTestOrg(api.url)).dev;
    const twilio = (path: string) => ({ accountSid: 'AC9', token: 'tok', from: '+15550199', baseUrl: `${fake.url}${path}` });
    // Activated while the demo sms provider is primary, then made primary itself.
    primary = await createIntegration(env.client, {
      providerId: 'twilio',
      channel: 'sms',
      identifier: `primary-${rand()}`,
      credentials: twilio('/primary'),
      active: true,
    });
    expect((await env.client.post(`/v1/integrations/${primary._id}/set-primary`, {})).status).toBeLessThan(300);
    forAcme = await createIntegration(env.client, {
      providerId: 'twilio',
      channel: 'sms',
      identifier: `acme-${rand()}`,
      credentials: twilio('/acme'),
      active: true,
      conditions: [
        {
          isNegated: false,
          type: 'GROUP',
          value: 'AND',
          children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }],
        },
      ],
    });
    named = await createIntegration(env.client, {
      providerId: 'twilio',
      channel: 'sms',
      identifier: `named-${rand()}`,
      credentials: twilio('/named'),
      active: true,
    });
    expect((await env.client.post('/v2/tenants', { identifier: 'acme', name: 'Acme' })).status).toBe(201);
    wf = await smsWorkflow(env.client, 'Code {{payload.code}}');
  });
  // The test server answers with the path the integration's baseUrl gave, so each send shows which integration made it.
  beforeEach(() => {
    fake.reply = (r) => ({ status: 201, body: { sid: `SM-${r.path.split('/')[1]}-${r.form.get('To')}` } });
  });

  const deliveredVia = (phone: string) => fake.requests.filter((r) => r.form.get('To') === phone).map((r) => r.path.split('/')[1]);

  it('delivers through the primary integration and records the provider id', async () => {
    const subscriberId = `sub-${rand()}`;
    const phone = `+1555${Math.floor(Math.random() * 1e7)}`;
    const txid = await triggerWith(env.client, { name: wf, to: { subscriberId, phone }, payload: { code: '481516' } });
    const item = await settledOne(env.client, txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(item.jobs[0].executionDetails.map((d: any) => d.detail)).toEqual([
      'Step queued',
      'Twilio provider was selected',
      'Message created',
      'Message sent',
    ]);
    const [message] = await smsOf(env.client, subscriberId);
    expect(message).toMatchObject({
      status: 'sent',
      providerId: 'twilio',
      phone,
      content: 'Code 481516',
      identifier: `SM-primary-${phone}`,
    });
    expect(deliveredVia(phone)).toEqual(['primary']);
    const request = fake.requests.find((r) => r.form.get('To') === phone)!;
    expect(request.headers.authorization).toBe(basic('AC9', 'tok'));
    expect(Object.fromEntries(request.form)).toEqual({ To: phone, From: '+15550199', Body: 'Code 481516' });
  });

  it('uses the integration whose conditions the tenant passes, and the one overrides name', async () => {
    const tenantPhone = `+1666${Math.floor(Math.random() * 1e7)}`;
    const namedPhone = `+1777${Math.floor(Math.random() * 1e7)}`;
    const otherTenantPhone = `+1888${Math.floor(Math.random() * 1e7)}`;
    const viaTenant = await triggerWith(env.client, {
      name: wf,
      to: { subscriberId: `t-${rand()}`, phone: tenantPhone },
      payload: { code: '1' },
      tenant: 'acme',
    });
    const viaName = await triggerWith(env.client, {
      name: wf,
      to: { subscriberId: `n-${rand()}`, phone: namedPhone },
      payload: { code: '2' },
      overrides: { sms: { integrationIdentifier: named.identifier } },
    });
    expect((await env.client.post('/v2/tenants', { identifier: 'globex', name: 'Globex' })).status).toBe(201);
    const otherTenant = await triggerWith(env.client, {
      name: wf,
      to: { subscriberId: `o-${rand()}`, phone: otherTenantPhone },
      payload: { code: '3' },
      tenant: 'globex',
    });
    for (const txid of [viaTenant, viaName, otherTenant]) expect((await settledOne(env.client, txid)).jobs[0].status).toBe('completed');
    expect(deliveredVia(tenantPhone)).toEqual(['acme']);
    expect(deliveredVia(namedPhone)).toEqual(['named']);
    expect(deliveredVia(otherTenantPhone)).toEqual(['primary']);
    expect(forAcme.primary).toBe(false);
  });
});

describe('integrations: what can be active', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = (await createTestOrg(api.url)).dev;
  });

  it('422 listing every missing credential, and the rules between generic-sms fields', async () => {
    const twilio = await env.client.post('/v1/integrations', {
      providerId: 'twilio',
      channel: 'sms',
      credentials: { accountSid: 'AC1' },
      active: true,
    });
    expect(twilio.status).toBe(422);
    expect(Object.keys(twilio.body.errors).sort()).toEqual(['credentials.from', 'credentials.token']);

    const inactive = await createIntegration(env.client, { providerId: 'twilio', channel: 'sms', credentials: { accountSid: 'AC1' } });
    const activate = await env.client.put(`/v1/integrations/${inactive._id}`, { active: true });
    expect(activate.status).toBe(422);
    expect(Object.keys(activate.body.errors).sort()).toEqual(['credentials.from', 'credentials.token']);

    const generic = await env.client.post('/v1/integrations', {
      providerId: 'generic-sms',
      channel: 'sms',
      active: true,
      credentials: {
        baseUrl: 'ftp://sms.example',
        apiKeyRequestHeader: 'bad header',
        apiKey: 'k',
        idPath: 'id',
        from: 'x',
        authenticateByToken: true,
      },
    });
    expect(generic.status).toBe(422);
    expect(Object.keys(generic.body.errors).sort()).toEqual([
      'credentials.apiKeyRequestHeader',
      'credentials.authenticationTokenKey',
      'credentials.baseUrl',
      'credentials.domain',
    ]);
  });

  it('check: true reads the Twilio account without sending', async () => {
    fake.reply = () => ({ status: 200, body: { sid: 'AC5', status: 'active' } });
    const credentials = { accountSid: 'AC5', token: 'tok', from: '+1555', baseUrl: fake.url };
    expect((await env.client.post('/v1/integrations', { providerId: 'twilio', channel: 'sms', credentials, check: true })).status).toBe(
      201,
    );
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/2010-04-01/Accounts/AC5.json' });
    fake.reply = () => ({ status: 401, body: { code: 20003, message: 'Authenticate' } });
    const refused = await env.client.post('/v1/integrations', { providerId: 'twilio', channel: 'sms', credentials, check: true });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Integration check failed for twilio: Twilio answered 401: Authenticate');
  });
});
