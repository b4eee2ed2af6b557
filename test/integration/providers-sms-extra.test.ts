import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { PHONE, basicAuthOf as basic, smsDelivery as sms } from '../support/deliveries.ts';
import { expectActivation, type ActivationCase } from '../support/provider-activation.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';

// More catalogue SMS providers (issue 18) against a local HTTP server standing in for each
// vendor's API: the exact request each documents (URL, auth, to/from/text), its id kept, its
// refusals (in an error status or inside a 200) final with its reason, 5xx/429 retried. Then
// through the API: activation with valid and malformed credentials, `check: true`, and one
// trigger delivered end to end.

// The fake API, with short timeouts and retry waits for this worker's direct provider calls.
const fake = fakeApiForFile();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Gupshup', () => {
  const credentials = () => ({ user: '2000123', password: 'gs-pass', baseUrl: fake.url });

  it('posts the GatewayAPI form with the user id and password; the id is the answer’s third field', async () => {
    fake.reply = () => ({ body: 'success | 15550100 | 3234839392-1' });
    const result = await send(
      sms('gupshup', credentials(), { overrides: { customData: { principalEntityId: 'pe-1', dltTemplateId: 'dlt-9' } } }),
    );
    expect(result.id).toBe('3234839392-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/GatewayAPI/rest' });
    expect(Object.fromEntries(request!.form)).toEqual({
      method: 'SendMessage',
      send_to: PHONE,
      msg: 'Your code is 123',
      msg_type: 'TEXT',
      userid: '2000123',
      password: 'gs-pass',
      auth_scheme: 'plain',
      v: '1.1',
      format: 'text',
      principalEntityId: 'pe-1',
      dltTemplateId: 'dlt-9',
    });
  });

  it('an error line in a 200 is final, with Gupshup’s reason; a 5xx is tried three times', async () => {
    fake.reply = () => ({ body: 'error | 105 | Authentication failed' });
    const error = await failure(send(sms('gupshup', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Gupshup refused the message: 105 Authentication failed');

    fake.reset();
    fake.reply = () => ({ status: 502, body: 'Bad Gateway' });
    const unavailable = await failure(send(sms('gupshup', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(unavailable.raw).toMatchObject({ status: 502, attempts: 3 });
  });
});

describe('Firetext', () => {
  const credentials = () => ({ apiKey: 'ft-key', baseUrl: fake.url });

  it('posts the key, sender, number and message; the id is the X-Message header', async () => {
    fake.reply = () => ({ headers: { 'x-message': 'ft-msg-1' }, body: '0:1 SMS successfully queued' });
    const result = await send(sms('firetext', credentials()));
    expect(result.id).toBe('ft-msg-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/sendsms' });
    expect(Object.fromEntries(request!.form)).toEqual({ apiKey: 'ft-key', from: '+15550199', to: PHONE, message: 'Your code is 123' });
  });

  it('a code other than 0 is final, with Firetext’s description', async () => {
    fake.reply = () => ({ body: '1:0 Authentication error' });
    const error = await failure(send(sms('firetext', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Firetext refused the message: 1: Authentication error');
  });
});

describe('BurstSMS', () => {
  const credentials = () => ({ apiKey: 'bk', secretKey: 'bs', baseUrl: fake.url });

  it('posts the form with Basic auth (key and secret)', async () => {
    fake.reply = () => ({
      body: { message_id: 123456, send_at: '2026-11-27 10:00:00', recipients: 1, error: { code: 'SUCCESS', description: 'OK' } },
    });
    const result = await send(sms('burst-sms', credentials()));
    expect(result.id).toBe('123456');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/send-sms.json' });
    expect(request!.headers.authorization).toBe(basic('bk', 'bs'));
    expect(Object.fromEntries(request!.form)).toEqual({ message: 'Your code is 123', to: PHONE, from: '+15550199' });
  });

  it('a 400 is final with its description; a 429 is tried again', async () => {
    fake.reply = () => ({ status: 400, body: { error: { code: 'FIELD_INVALID', description: 'The to field is not a valid number' } } });
    const error = await failure(send(sms('burst-sms', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('BurstSMS answered 400: The to field is not a valid number');

    fake.reset();
    fake.reply = (_r, index) =>
      index === 0
        ? { status: 429, body: { error: { code: 'OVER_LIMIT', description: 'Too many requests' } } }
        : { body: { message_id: 7 } };
    expect((await send(sms('burst-sms', credentials()))).id).toBe('7');
    expect(fake.requests).toHaveLength(2);
  });
});

describe('BulkSMS', () => {
  const credentials = () => ({ apiToken: 'tok-id:tok-secret', baseUrl: fake.url });

  it('posts JSON with the token pair as Basic auth; the id is the first message’s', async () => {
    fake.reply = () => ({ status: 201, body: [{ id: 'bulk-1', type: 'SENT', to: PHONE, body: 'Your code is 123' }] });
    const result = await send(sms('bulk-sms', credentials()));
    expect(result.id).toBe('bulk-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request!.headers.authorization).toBe(basic('tok-id', 'tok-secret'));
    expect(request!.json).toEqual({ to: PHONE, body: 'Your code is 123', from: '+15550199' });
  });

  it('a problem answer is final with its detail', async () => {
    fake.reply = () => ({
      status: 403,
      body: {
        type: 'https://developer.bulksms.com/json/v1/errors#insufficient-credits',
        title: 'Insufficient Credits',
        status: 403,
        detail: 'You do not have enough credits',
      },
    });
    const error = await failure(send(sms('bulk-sms', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('BulkSMS answered 403: You do not have enough credits');
  });
});

describe('iSend SMS', () => {
  const credentials = () => ({ apiToken: 'is-token', baseUrl: fake.url });

  it('posts JSON with Bearer auth, the recipient without its +; the id is data.uid', async () => {
    fake.reply = () => ({
      body: { status: 'success', message: 'Your message was successfully delivered', data: { uid: 'is-uid-1', to: '15550100' } },
    });
    const result = await send(sms('isend-sms', credentials()));
    expect(result.id).toBe('is-uid-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v3/sms/send' });
    expect(request!.headers.authorization).toBe('Bearer is-token');
    expect(request!.json).toEqual({ recipient: '15550100', sender_id: '+15550199', type: 'unicode', message: 'Your code is 123' });

    // No sender id (optional for iSend): the account's default.
    await send(sms('isend-sms', { ...credentials(), from: undefined }));
    expect(fake.requests[1]!.json).toEqual({ recipient: '15550100', type: 'unicode', message: 'Your code is 123' });
  });

  it('status "error" in a 200 is final with its message', async () => {
    fake.reply = () => ({ body: { status: 'error', message: 'Sender ID not authorized' } });
    const error = await failure(send(sms('isend-sms', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('iSend SMS refused the message: Sender ID not authorized');
  });
});

describe('46elks', () => {
  const credentials = () => ({ user: 'u-elk', password: 'p-elk', baseUrl: fake.url });

  it('posts the form with Basic auth', async () => {
    fake.reply = () => ({
      body: { status: 'created', id: 's70df59406a1b4643b96f3f91e0bfb7b0', from: '+15550199', to: PHONE, message: 'Your code is 123' },
    });
    const result = await send(sms('forty-six-elks', credentials()));
    expect(result.id).toBe('s70df59406a1b4643b96f3f91e0bfb7b0');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/a1/sms' });
    expect(request!.headers.authorization).toBe(basic('u-elk', 'p-elk'));
    expect(Object.fromEntries(request!.form)).toEqual({ from: '+15550199', to: PHONE, message: 'Your code is 123' });
  });

  it('its text refusal is final; no answer in time is tried three times', async () => {
    fake.reply = () => ({ status: 403, body: 'Invalid to number' });
    const error = await failure(send(sms('forty-six-elks', credentials())));
    expect(error.message).toBe('46elks answered 403: Invalid to number');
    expect(fake.requests).toHaveLength(1);

    fake.reset();
    fake.reply = () => ({ delayMs: 1_000, body: { id: 'late' } });
    const late = await failure(send(sms('forty-six-elks', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(late.message).toBe('46elks did not answer within 400 ms');
  });
});

describe('Kannel', () => {
  const port = () => new URL(fake.url).port;

  it('GETs its sendbox’s sendsms with the send-sms user in the query; the id kept is ours', async () => {
    fake.reply = () => ({ status: 202, body: '0: Accepted for delivery' });
    const result = await send(sms('kannel', { host: '127.0.0.1', port: port(), user: 'tester', password: 'foobar' }));
    expect(result.id).toMatch(UUID);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'GET', path: '/cgi-bin/sendsms' });
    expect(Object.fromEntries(request!.query)).toEqual({
      from: '+15550199',
      to: PHONE,
      text: 'Your code is 123',
      username: 'tester',
      password: 'foobar',
    });

    // Without user and password (a sendbox open to the network), and a host given with its scheme.
    await send(sms('kannel', { host: 'http://127.0.0.1', port: port() }));
    expect(Object.fromEntries(fake.requests[1]!.query)).toEqual({ from: '+15550199', to: PHONE, text: 'Your code is 123' });
  });

  it('the trigger’s provider data goes into the query (a GET has no body)', async () => {
    fake.reply = () => ({ status: 202, body: '0: Accepted for delivery' });
    const providerData = { coding: 2, 'dlr-mask': '31', _passthrough: { query: { smsc: 'smsc-2' } } };
    await send(sms('kannel', { host: '127.0.0.1', port: port() }, { providerData }));
    expect(Object.fromEntries(fake.requests[0]!.query)).toEqual({
      from: '+15550199',
      to: PHONE,
      text: 'Your code is 123',
      coding: '2',
      'dlr-mask': '31',
      smsc: 'smsc-2',
    });
  });

  it('a refusal is final with Kannel’s text', async () => {
    fake.reply = () => ({ status: 403, body: 'Authorization failed for sendsms' });
    const error = await failure(send(sms('kannel', { host: '127.0.0.1', port: port(), user: 'tester', password: 'wrong' })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Kannel answered 403: Authorization failed for sendsms');
  });
});

describe('Maqsam', () => {
  const credentials = () => ({ apiKey: 'mq-id', secretKey: 'mq-secret', baseUrl: fake.url });

  it('posts JSON with Basic auth (access key id and secret); the id is message.identifier', async () => {
    fake.reply = () => ({
      body: { result: 'success', message: { identifier: '23937e6e6ea74726b659aba17d4d73aa', timestamp: 1700000000 } },
    });
    const result = await send(sms('maqsam', credentials()));
    expect(result.id).toBe('23937e6e6ea74726b659aba17d4d73aa');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/sms' });
    expect(request!.headers.authorization).toBe(basic('mq-id', 'mq-secret'));
    expect(request!.json).toEqual({ to: PHONE, message: 'Your code is 123', sender: '+15550199' });
  });

  it('a 401 is final with Maqsam’s message', async () => {
    fake.reply = () => ({ status: 401, body: { result: 'failure', message: 'Invalid credentials' } });
    const error = await failure(send(sms('maqsam', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Maqsam answered 401: Invalid credentials');
  });
});

describe('SMS Central', () => {
  const credentials = () => ({ user: 'sc-user', password: 'sc-pass', baseUrl: `${fake.url}/api/v3.2` });

  it('posts the upper-case form to the API URL; our id goes as REFERENCE and is the id kept', async () => {
    fake.reply = () => ({ body: '0' });
    const result = await send(sms('sms-central', credentials()));
    expect(result.id).toMatch(UUID);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v3.2' });
    expect(Object.fromEntries(request!.form)).toEqual({
      ACTION: 'send',
      USERNAME: 'sc-user',
      PASSWORD: 'sc-pass',
      ORIGINATOR: '+15550199',
      RECIPIENT: PHONE,
      MESSAGE_TEXT: 'Your code is 123',
      REFERENCE: result.id,
    });
  });

  it('a code other than 0 is final', async () => {
    fake.reply = () => ({ body: '401' });
    const error = await failure(send(sms('sms-central', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('SMS Central refused the message: code 401');
  });
});

describe('Eazy', () => {
  const credentials = () => ({ apiKey: 'ez-key', channelId: 'chan-7', baseUrl: fake.url });

  it('posts a text message to the number on the integration’s SMS channel, Bearer auth', async () => {
    fake.reply = () => ({ body: { id: 'ez-1' } });
    const result = await send(sms('eazy-sms', credentials()));
    expect(result.id).toBe('ez-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/channels/chan-7/messages/%2B15550100%40sms.eazy.im' });
    expect(request!.headers.authorization).toBe('Bearer ez-key');
    expect(request!.json).toEqual({ message: { type: 'text', text: 'Your code is 123' } });
  });

  it('a 4xx is final with Eazy’s message', async () => {
    fake.reply = () => ({ status: 404, body: { message: 'Channel not found' } });
    const error = await failure(send(sms('eazy-sms', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Eazy answered 404: Channel not found');
  });
});

describe('Mobishastra', () => {
  const credentials = () => ({ user: 'ms-user', password: 'ms-pass', baseUrl: `${fake.url}/sendsms` });

  it('posts a list of one message to the account’s URL; the id is msg_id', async () => {
    fake.reply = () => ({ body: [{ msg_id: ' 917654 ', str_response: 'Send Successful' }] });
    const result = await send(sms('mobishastra', credentials()));
    expect(result.id).toBe('917654');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/sendsms' });
    expect(request!.json).toEqual([{ user: 'ms-user', pwd: 'ms-pass', number: PHONE, msg: 'Your code is 123', Sender: '+15550199' }]);
  });

  it('an answer without msg_id is final with its str_response', async () => {
    fake.reply = () => ({ body: [{ str_response: 'Invalid Username or Password' }] });
    const error = await failure(send(sms('mobishastra', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Mobishastra refused the message: Invalid Username or Password');
  });
});

describe('AfroMessage', () => {
  const credentials = () => ({ apiKey: 'af-token', senderName: 'Acme', from: 'e80ad9d8-adf3-463f-80f4-7c4b39f7f164', baseUrl: fake.url });

  it('posts JSON with Bearer auth, the identifier id as from and the sender name', async () => {
    fake.reply = () => ({ body: { acknowledge: 'success', response: { status: 'Send', message_id: 'af-1', to: PHONE } } });
    const result = await send(sms('afro-message', credentials()));
    expect(result.id).toBe('af-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/send' });
    expect(request!.headers.authorization).toBe('Bearer af-token');
    expect(request!.json).toEqual({ from: 'e80ad9d8-adf3-463f-80f4-7c4b39f7f164', sender: 'Acme', to: PHONE, message: 'Your code is 123' });
  });

  it('acknowledge "error" in a 200 is final with its error', async () => {
    fake.reply = () => ({ body: { acknowledge: 'error', response: { errors: ['Sender name is not verified'] } } });
    const error = await failure(send(sms('afro-message', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('AfroMessage refused the message: Sender name is not verified');
  });
});

describe('iMedia', () => {
  const credentials = () => ({ token: 'im-token', baseUrl: fake.url });

  it('posts JSON with the token header; the id is referentId', async () => {
    fake.reply = () => ({ body: { errorCode: '000', errorMessage: 'Success', referentId: 'im-ref-1', msgLength: 16, mtCount: 1 } });
    const result = await send(sms('imedia', credentials()));
    expect(result.id).toBe('im-ref-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/SMSBrandname/SendSMS' });
    expect(request!.headers.token).toBe('im-token');
    expect(request!.json).toEqual({ to: PHONE, from: '+15550199', message: 'Your code is 123', useUnicode: 1, type: 1 });
  });

  it('an error code in a 200 is final with its message', async () => {
    fake.reply = () => ({ body: { errorCode: '004', errorMessage: 'Brandname not registered' } });
    const error = await failure(send(sms('imedia', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('iMedia refused the message: 004 Brandname not registered');
  });
});

describe('iSendPro', () => {
  const credentials = () => ({ apiKey: 'ip-key', baseUrl: fake.url });

  it('posts JSON with the key in the body; the id kept is ours', async () => {
    fake.reply = () => ({ body: { etat: { etat: [{ code: 0, tel: '15550100', message: 'Envoi OK' }] } } });
    const result = await send(sms('isendpro-sms', credentials()));
    expect(result.id).toMatch(UUID);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/cgi-bin/sms' });
    expect(request!.json).toEqual({ keyid: 'ip-key', num: PHONE, sms: 'Your code is 123', emetteur: '+15550199' });
  });

  it('a return code other than 0 is final with its label', async () => {
    fake.reply = () => ({ body: { etat: { etat: [{ code: 9, message: 'Cle API non reconnue' }] } } });
    const error = await failure(send(sms('isendpro-sms', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('iSendPro refused the message: 9 Cle API non reconnue');
  });
});

// ---- through the API ----------------------------------------------------------------------------

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('integrations of these providers', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = (await createTestOrg(api.url)).dev;
  });

  // Valid credentials of each, by the catalogue; and what each refuses (422 with these paths).
  const providers: ActivationCase[] = [
    { providerId: 'gupshup', valid: { user: 'u', password: 'p' }, malformed: { user: 'u' }, errors: ['credentials.password'] },
    {
      providerId: 'firetext',
      valid: { apiKey: 'k', from: 'Acme' },
      malformed: { apiKey: ' ', from: 'Acme' },
      errors: ['credentials.apiKey'],
    },
    {
      providerId: 'burst-sms',
      valid: { apiKey: 'k', secretKey: 's' },
      malformed: { apiKey: 'k', secretKey: null },
      errors: ['credentials.secretKey'],
    },
    { providerId: 'bulk-sms', valid: { apiToken: 'id:secret' }, malformed: { apiToken: '' }, errors: ['credentials.apiToken'] },
    { providerId: 'isend-sms', valid: { apiToken: 't' }, malformed: {}, errors: ['credentials.apiToken'] },
    {
      providerId: 'forty-six-elks',
      valid: { user: 'u', password: 'p', from: 'Acme' },
      malformed: { user: 'u', password: 'p' },
      errors: ['credentials.from'],
    },
    {
      providerId: 'kannel',
      valid: { host: 'kannel.acme.test', port: '13013', from: 'Acme' },
      malformed: { host: 'ftp://kannel', port: 'sendsms', from: 'Acme' },
      errors: ['credentials.host', 'credentials.port'],
    },
    {
      providerId: 'maqsam',
      valid: { apiKey: 'k', secretKey: 's', from: 'Acme' },
      malformed: { apiKey: 'k', from: 'Acme' },
      errors: ['credentials.secretKey'],
    },
    {
      providerId: 'sms-central',
      valid: { user: 'u', password: 'p', from: 'Acme' },
      malformed: { user: 'u', password: 'p', from: 'Acme', baseUrl: 'not a url' },
      errors: ['credentials.baseUrl'],
    },
    { providerId: 'eazy-sms', valid: { apiKey: 'k', channelId: 'c' }, malformed: { apiKey: 'k' }, errors: ['credentials.channelId'] },
    {
      providerId: 'mobishastra',
      valid: { baseUrl: 'https://mshastra.com/sendsms_api_json.aspx', user: 'u', password: 'p', from: 'Acme' },
      malformed: { baseUrl: 'mailto:x', user: 'u', password: 'p', from: 'Acme' },
      errors: ['credentials.baseUrl'],
    },
    {
      providerId: 'afro-message',
      valid: { apiKey: 'k', senderName: 'Acme', from: 'id-1' },
      malformed: { apiKey: 'k', from: 'id-1' },
      errors: ['credentials.senderName'],
    },
    { providerId: 'imedia', valid: { token: 't', from: 'Acme' }, malformed: { from: 'Acme' }, errors: ['credentials.token'] },
    { providerId: 'isendpro-sms', valid: { apiKey: 'k' }, malformed: { apiKey: '   ' }, errors: ['credentials.apiKey'] },
  ];

  it.each(providers)('$providerId: active with valid credentials (201), refused with malformed ones (422, nothing saved)', (c) =>
    expectActivation(env.client, 'sms', c),
  );

  it(
    'check: true reads the account without sending: BurstSMS balance, ' +
      'BulkSMS profile, iSend SMS balance, 46elks account, iSendPro credit',
    async () => {
      const checks = [
        {
          providerId: 'burst-sms',
          credentials: { apiKey: 'bk', secretKey: 'bs' },
          method: 'GET',
          path: '/get-balance.json',
          authorization: basic('bk', 'bs'),
        },
        {
          providerId: 'bulk-sms',
          credentials: { apiToken: 'id:secret' },
          method: 'GET',
          path: '/v1/profile',
          authorization: basic('id', 'secret'),
        },
        {
          providerId: 'isend-sms',
          credentials: { apiToken: 'is-token' },
          method: 'GET',
          path: '/api/v3/balance',
          authorization: 'Bearer is-token',
        },
        {
          providerId: 'forty-six-elks',
          credentials: { user: 'u', password: 'p', from: 'Acme' },
          method: 'GET',
          path: '/a1/me',
          authorization: basic('u', 'p'),
        },
        { providerId: 'isendpro-sms', credentials: { apiKey: 'ip-key' }, method: 'GET', path: '/cgi-bin/credit', authorization: undefined },
      ];
      for (const { providerId, credentials, method, path, authorization } of checks) {
        fake.reset();
        const created = await env.client.post('/v1/integrations', {
          providerId,
          channel: 'sms',
          credentials: { ...credentials, baseUrl: fake.url },
          check: true,
        });
        expect(created.status, `${providerId}: ${JSON.stringify(created.body)}`).toBe(201);
        expect(created.headers.get('warning')).toBeNull();
        expect(fake.requests, providerId).toHaveLength(1);
        expect(fake.requests[0]).toMatchObject({ method, path });
        expect(fake.requests[0]!.headers.authorization).toBe(authorization);
      }
      expect(Object.fromEntries(fake.requests[0]!.query)).toEqual({ keyid: 'ip-key', credit: '1' });

      fake.reset();
      fake.reply = () => ({
        status: 401,
        body: {
          type: 'https://developer.bulksms.com/json/v1/errors#authentication-failed',
          title: 'Authentication Failed',
          status: 401,
          detail: 'Authentication failed',
        },
      });
      const refused = await env.client.post('/v1/integrations', {
        providerId: 'bulk-sms',
        channel: 'sms',
        credentials: { apiToken: 'id:wrong', baseUrl: fake.url },
        check: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Integration check failed for bulk-sms: BulkSMS answered 401: Authentication failed');

      fake.reply = () => ({ body: { etat: { etat: [{ code: 9, message: 'Cle API non reconnue' }] } } });
      const refusedInBody = await env.client.post('/v1/integrations', {
        providerId: 'isendpro-sms',
        channel: 'sms',
        credentials: { apiKey: 'wrong', baseUrl: fake.url },
        check: true,
      });
      expect(refusedInBody.status).toBe(400);
      expect(refusedInBody.body.message).toBe(
        'Integration check failed for isendpro-sms: iSendPro refused the message: 9 Cle API non reconnue',
      );
    },
  );

  it.each(['gupshup', 'firetext', 'kannel', 'maqsam', 'sms-central', 'eazy-sms', 'mobishastra', 'afro-message', 'imedia'])(
    '%s: check: true says in a warning that nothing could be checked, sends nothing, and saves',
    async (providerId) => {
      const valid = providers.find((p) => p.providerId === providerId)!.valid;
      const created = await env.client.post('/v1/integrations', { providerId, channel: 'sms', credentials: valid, check: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('warning')).toBe(
        `299 - "${providerId} has no call that tests credentials without sending anything: they were not checked"`,
      );
      expect(fake.requests).toHaveLength(0);
    },
  );
});

describe('end to end: API → queues → provider', () => {
  it('a trigger is delivered through an active Gupshup integration, its message id kept', async () => {
    const env = (await createTestOrg(api.url)).dev;
    const created = await env.client.post('/v1/integrations', {
      providerId: 'gupshup',
      channel: 'sms',
      active: true,
      credentials: { user: 'gu', password: 'gp', baseUrl: fake.url },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await env.client.post(`/v1/integrations/${created.body.data._id}/set-primary`, {})).status).toBeLessThan(300);
    const workflowId = `wf-${rand()}`;
    const workflow = await env.client.post('/v2/workflows', {
      name: workflowId,
      workflowId,
      active: true,
      steps: [{ name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: 'Code {{payload.code}}' } }],
    });
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);
    fake.reply = (r) => ({ body: `success | ${r.form.get('send_to')} | gs-${r.form.get('send_to')}` });

    const subscriberId = `sub-${rand()}`;
    const phone = `+1555${Math.floor(Math.random() * 1e7)}`;
    const item = await settledOne(
      env.client,
      await triggerWith(env.client, { name: workflowId, to: { subscriberId, phone }, payload: { code: '481516' } }),
    );
    expect(item.jobs[0].status).toBe('completed');
    const request = fake.requests.find((r) => r.form.get('send_to') === phone)!;
    expect(request.form.get('msg')).toBe('Code 481516');
    const messages = await env.client.get(`/v1/messages?subscriberId=${subscriberId}&channel=sms&limit=10`);
    expect(messages.body.data[0]).toMatchObject({
      status: 'sent',
      providerId: 'gupshup',
      phone,
      content: 'Code 481516',
      identifier: `gs-${phone}`,
    });
  });
});
