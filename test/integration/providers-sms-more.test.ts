import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { PROVIDERS } from '#lib/integrations/catalogue.ts';
import { canDeliver } from '#lib/providers/credential-checks.ts';
import type { Delivery } from '#lib/providers/provider.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { messagesOf, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { PHONE, basicAuthOf as basic, deliveryOf, smsDelivery } from '../support/deliveries.ts';
import { expectActivation, type ActivationCase } from '../support/provider-activation.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';

// More SMS providers of the catalogue against a local HTTP server that checks each vendor's
// documented request and answers success, a refusal, a 5xx or nothing in time; called directly
// through the registry, then activated and checked through the integrations API.

// The fake API, with short timeouts and retry waits for this worker's direct provider calls.
const fake = fakeApiForFile();

// The content smsDelivery sends.
const TEXT = 'Your code is 123';
const sms = (providerId: string, credentials: Record<string, unknown>, fields: Partial<Delivery> = {}) =>
  smsDelivery(providerId, { ...credentials, baseUrl: fake.url }, fields);

describe('Sinch', () => {
  const credentials = { apiToken: 'sn-token', region: 'eu', accountSid: 'plan-1' };

  it('posts a batch of one to the service plan with the Bearer token', async () => {
    fake.reply = () => ({ status: 201, body: { id: 'sn-1', to: [PHONE], from: '+15550199', canceled: false } });
    const result = await send(sms('sinch', credentials));
    expect(result.id).toBe('sn-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/xms/v1/plan-1/batches' });
    expect(request!.headers.authorization).toBe('Bearer sn-token');
    expect(request!.json).toEqual({ from: '+15550199', to: [PHONE], body: TEXT });
  });

  it("a 4xx is final, with Sinch's text", async () => {
    fake.reply = () => ({ status: 400, body: { code: 'syntax_invalid_parameter_format', text: 'Parameter format is invalid: to' } });
    const error = await failure(send(sms('sinch', credentials)));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Sinch answered 400: Parameter format is invalid: to');
  });
});

describe('Bandwidth', () => {
  const credentials = { user: 'api-user', password: 'api-pass', accountSid: '9900001' };

  it('posts the message to the account with Basic auth; the application id defaults to the account id', async () => {
    fake.reply = () => ({ status: 202, body: { id: 'bw-1', owner: '+15550199', time: '2030-01-01T00:00:00Z' } });
    const result = await send(sms('bandwidth', credentials));
    expect(result.id).toBe('bw-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v2/users/9900001/messages' });
    expect(request!.headers.authorization).toBe(basic('api-user', 'api-pass'));
    expect(request!.json).toEqual({ applicationId: '9900001', to: [PHONE], from: '+15550199', text: TEXT });

    await send(sms('bandwidth', { ...credentials, applicationId: 'app-7' }));
    expect(fake.requests[1]!.json.applicationId).toBe('app-7');
  });

  it("a refusal is final with Bandwidth's description", async () => {
    fake.reply = () => ({ status: 400, body: { type: 'request-validation', description: 'Your request could not be accepted' } });
    const error = await failure(send(sms('bandwidth', credentials)));
    expect(error.message).toBe('Bandwidth answered 400: Your request could not be accepted');
  });
});

describe('Clickatell', () => {
  it('posts the message with the API key as the Authorization header, the sender only when one is named', async () => {
    fake.reply = () => ({ status: 202, body: { messages: [{ apiMessageId: 'ck-1', accepted: true, to: '15550100' }], errorCode: null } });
    const result = await send(deliveryOf('clickatell', 'sms', { apiKey: 'ck-key', baseUrl: fake.url }, { to: PHONE, content: TEXT }));
    expect(result.id).toBe('ck-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/messages' });
    expect(request!.headers.authorization).toBe('ck-key');
    expect(request!.json).toEqual({ to: [PHONE], content: TEXT });

    await send(
      deliveryOf(
        'clickatell',
        'sms',
        { apiKey: 'ck-key', baseUrl: fake.url },
        { to: PHONE, content: TEXT, overrides: { from: '+15550111' } },
      ),
    );
    expect(fake.requests[1]!.json).toEqual({ to: [PHONE], from: '+15550111', content: TEXT });
  });

  it('a recipient it does not accept fails with its description; a bad key with its error', async () => {
    fake.reply = () => ({
      status: 202,
      body: {
        messages: [
          {
            apiMessageId: '',
            accepted: false,
            to: '1',
            errorCode: 105,
            error: 'Invalid destination address',
            errorDescription: 'Invalid Destination Address',
          },
        ],
      },
    });
    const refused = await failure(send(sms('clickatell', { apiKey: 'ck-key' })));
    expect(refused.message).toBe('Clickatell refused the message: Invalid Destination Address');

    fake.reply = () => ({
      status: 401,
      body: {
        messages: [],
        errorCode: 1,
        error: 'Invalid or missing Integration API Key',
        errorDescription: 'Invalid or missing Integration API Key',
      },
    });
    const unauthorized = await failure(send(sms('clickatell', { apiKey: 'wrong' })));
    expect(unauthorized.message).toBe('Clickatell answered 401: Invalid or missing Integration API Key');
  });
});

describe('Termii', () => {
  it('posts a plain message on the generic channel with the key in the body', async () => {
    fake.reply = () => ({ status: 200, body: { message_id: 'tm-1', message: 'Successfully Sent', balance: 9, user: 'Ada' } });
    const result = await send(sms('termii', { apiKey: 'tm-key' }));
    expect(result.id).toBe('tm-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/sms/send' });
    expect(request!.json).toEqual({ to: PHONE, from: '+15550199', sms: TEXT, type: 'plain', channel: 'generic', api_key: 'tm-key' });
  });

  it("a refusal is final with Termii's message", async () => {
    fake.reply = () => ({ status: 400, body: { message: 'ApiSender not found' } });
    const error = await failure(send(sms('termii', { apiKey: 'tm-key' })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Termii answered 400: ApiSender not found');
  });
});

describe("Africa's Talking", () => {
  const success = {
    SMSMessageData: {
      Message: 'Sent to 1/1 Total Cost: KES 0.8000',
      Recipients: [{ statusCode: 101, number: PHONE, status: 'Success', cost: 'KES 0.8000', messageId: 'ATXid_1' }],
    },
  };

  it('posts the form with the username, the API key in its header', async () => {
    fake.reply = () => ({ status: 201, body: success });
    const result = await send(sms('africas-talking', { apiKey: 'at-key', user: 'acme' }));
    expect(result.id).toBe('ATXid_1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/version1/messaging' });
    expect(request!.headers.apikey).toBe('at-key');
    expect(Object.fromEntries(request!.form)).toEqual({ username: 'acme', to: PHONE, message: TEXT, from: '+15550199' });
  });

  it('a recipient that was not sent fails with its status', async () => {
    fake.reply = () => ({
      status: 201,
      body: {
        SMSMessageData: {
          Message: 'Sent to 0/1 Total Cost: 0',
          Recipients: [{ statusCode: 403, number: PHONE, status: 'InvalidPhoneNumber', messageId: 'None' }],
        },
      },
    });
    const error = await failure(send(sms('africas-talking', { apiKey: 'at-key', user: 'acme' })));
    expect(error.message).toBe("Africa's Talking did not send the message: InvalidPhoneNumber");

    fake.reply = () => ({ status: 401, body: 'The supplied authentication is invalid' });
    const unauthorized = await failure(send(sms('africas-talking', { apiKey: 'wrong', user: 'acme' })));
    expect(unauthorized.message).toBe("Africa's Talking answered 401: The supplied authentication is invalid");
  });
});

describe('ClickSend', () => {
  const credentials = { user: 'acme', apiKey: 'cs-key' };

  it('posts a list of one message with Basic auth, the sender as from', async () => {
    fake.reply = () => ({
      status: 200,
      body: { http_code: 200, response_code: 'SUCCESS', data: { messages: [{ message_id: 'cs-1', status: 'SUCCESS', to: PHONE }] } },
    });
    const result = await send(sms('clicksend', credentials));
    expect(result.id).toBe('cs-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/sms/send' });
    expect(request!.headers.authorization).toBe(basic('acme', 'cs-key'));
    expect(request!.json).toEqual({ messages: [{ to: PHONE, body: TEXT, from: '+15550199' }] });
  });

  it('a message whose status is not SUCCESS fails with it', async () => {
    fake.reply = () => ({
      status: 200,
      body: { http_code: 200, response_code: 'SUCCESS', data: { messages: [{ message_id: 'cs-2', status: 'INVALID_RECIPIENT' }] } },
    });
    const error = await failure(send(sms('clicksend', credentials)));
    expect(error.message).toBe('ClickSend did not send the message: INVALID_RECIPIENT');
  });
});

describe('sms77', () => {
  it('posts the message with the key in X-Api-Key and asks for the detailed answer', async () => {
    fake.reply = () => ({
      status: 200,
      body: {
        success: '100',
        total_price: 0.075,
        messages: [{ id: '77-1', recipient: '15550100', success: true, error: null, error_text: null }],
      },
    });
    const result = await send(sms('sms77', { apiKey: 's7-key' }));
    expect(result.id).toBe('77-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/sms' });
    expect(request!.headers['x-api-key']).toBe('s7-key');
    expect(request!.json).toEqual({ to: PHONE, text: TEXT, from: '+15550199', json: 1 });
  });

  it('its 200 with a code other than 100 fails with the code', async () => {
    fake.reply = () => ({ status: 200, body: 900 });
    const error = await failure(send(sms('sms77', { apiKey: 'wrong' })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('sms77 refused the message: code 900');

    fake.reply = () => ({
      status: 200,
      body: { success: '202', messages: [{ id: null, success: false, error: '202', error_text: 'Invalid recipient' }] },
    });
    const recipient = await failure(send(sms('sms77', { apiKey: 's7-key' })));
    expect(recipient.message).toBe('sms77 refused the message: code 202 (Invalid recipient)');
  });
});

describe('Brevo (brevo-sms)', () => {
  it('posts a transactional SMS with the api-key header', async () => {
    fake.reply = () => ({ status: 201, body: { reference: 'ref-1', messageId: 1511882900176220, smsCount: 1 } });
    const result = await send(sms('brevo-sms', { apiKey: 'bv-key', from: 'Acme' }));
    expect(result.id).toBe('1511882900176220');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/transactionalSMS/sms' });
    expect(request!.headers['api-key']).toBe('bv-key');
    expect(request!.json).toEqual({ sender: 'Acme', recipient: PHONE, content: TEXT });
  });

  it("a refusal is final with Brevo's message", async () => {
    fake.reply = () => ({ status: 402, body: { code: 'not_enough_credits', message: 'Not enough credits' } });
    const error = await failure(send(sms('brevo-sms', { apiKey: 'bv-key' })));
    expect(error.message).toBe('Brevo answered 402: Not enough credits');
  });
});

describe('Sendchamp', () => {
  it('posts the message on the international route with the Bearer key', async () => {
    fake.reply = () => ({
      status: 200,
      body: { code: 200, status: 'success', message: 'Operation successful', data: { business_id: 'sc-1', status: 'sent' } },
    });
    const result = await send(sms('sendchamp', { apiKey: 'sc-key', from: 'Acme' }));
    expect(result.id).toBe('sc-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/sms/send' });
    expect(request!.headers.authorization).toBe('Bearer sc-key');
    expect(request!.json).toEqual({ sender_name: 'Acme', to: PHONE, message: TEXT, route: 'international' });
  });

  it("a refusal is final with Sendchamp's message", async () => {
    fake.reply = () => ({ status: 422, body: { code: 422, status: 'error', message: 'Sender name is not approved' } });
    const error = await failure(send(sms('sendchamp', { apiKey: 'sc-key' })));
    expect(error.message).toBe('Sendchamp answered 422: Sender name is not approved');
  });
});

describe('SimpleTexting', () => {
  it('posts one strict SMS from the account phone with the Bearer token', async () => {
    fake.reply = () => ({ status: 201, body: { id: 'st-1', credits: 1 } });
    const result = await send(sms('simpletexting', { apiKey: 'st-key' }));
    expect(result.id).toBe('st-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/api/messages' });
    expect(request!.headers.authorization).toBe('Bearer st-key');
    expect(request!.json).toEqual({ contactPhone: PHONE, accountPhone: '+15550199', mode: 'SINGLE_SMS_STRICTLY', text: TEXT });
  });

  it("a refusal is final with SimpleTexting's message", async () => {
    fake.reply = () => ({ status: 400, body: { status: 400, message: 'Invalid contact phone' } });
    const error = await failure(send(sms('simpletexting', { apiKey: 'st-key' })));
    expect(error.message).toBe('SimpleTexting answered 400: Invalid contact phone');
  });
});

describe('Azure SMS', () => {
  const key = Buffer.from('azure-access-key-bytes').toString('base64');
  const connection = () => `endpoint=${fake.url}/;accesskey=${key}`;
  const azure = (fields: Partial<Delivery> = {}) =>
    deliveryOf('azure-sms', 'sms', { accessKey: connection(), from: '+15550199' }, { to: PHONE, content: TEXT, ...fields });

  it('posts the message to the resource of the connection string, signed with its access key', async () => {
    fake.reply = () => ({ status: 202, body: { value: [{ to: PHONE, messageId: 'az-1', httpStatusCode: 202, successful: true }] } });
    const result = await send(azure());
    expect(result.id).toBe('az-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/sms?api-version=2021-03-07' });
    expect(request!.json).toEqual({
      from: '+15550199',
      smsRecipients: [{ to: PHONE }],
      message: TEXT,
      smsSendOptions: { enableDeliveryReport: false },
    });
    // The signature Azure recomputes: method, path and query, date, host and the body's hash.
    const headers = request!.headers;
    expect(headers['x-ms-content-sha256']).toBe(createHash('sha256').update(request!.text).digest('base64'));
    const toSign = `POST\n${request!.url}\n${headers['x-ms-date']};${headers.host};${headers['x-ms-content-sha256']}`;
    const signature = createHmac('sha256', Buffer.from(key, 'base64')).update(toSign).digest('base64');
    expect(headers.authorization).toBe(`HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`);
    expect(headers['repeatability-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a recipient that was not sent fails with its errorMessage; a refused signature with Azure's message", async () => {
    fake.reply = () => ({
      status: 202,
      body: { value: [{ to: PHONE, httpStatusCode: 400, successful: false, errorMessage: 'Invalid To phone number format.' }] },
    });
    const refused = await failure(send(azure()));
    expect(refused.message).toBe('Azure SMS did not send the message: Invalid To phone number format.');

    fake.reply = () => ({ status: 401, body: { error: { code: 'Denied', message: 'Denied by the resource provider.' } } });
    const denied = await failure(send(azure()));
    expect(denied.message).toBe('Azure SMS answered 401: Denied by the resource provider.');
  });

  it('a retry repeats the same signed request, so Azure sends once', async () => {
    fake.reply = (_request, index) =>
      index === 0 ? { status: 503, body: {} } : { status: 202, body: { value: [{ messageId: 'az-2', successful: true }] } };
    expect((await send(azure())).id).toBe('az-2');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.headers['repeatability-request-id']).toBe(fake.requests[0]!.headers['repeatability-request-id']);
  });
});

describe('RingCentral', () => {
  const credentials = (clientId: string) => ({ clientId, secretKey: 'rc-secret', token: 'jwt.assertion.value' });
  const routes = (sms: () => { status: number; body: unknown }) => (request: { path: string }) =>
    request.path === '/restapi/oauth/token'
      ? { status: 200, body: { access_token: 'rc-access', token_type: 'bearer', expires_in: 3600 } }
      : sms();

  it('exchanges the JWT for an access token once, then posts the SMS from the extension', async () => {
    fake.reply = routes(() => ({
      status: 200,
      body: { id: 1724099032020, creationTime: '2030-01-01T00:00:00Z', messageStatus: 'Queued' },
    }));
    const result = await send(sms('ring-central', credentials('rc-app-1')));
    expect(result.id).toBe('1724099032020');
    await send(sms('ring-central', credentials('rc-app-1')));
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/restapi/oauth/token',
      '/restapi/v1.0/account/~/extension/~/sms',
      '/restapi/v1.0/account/~/extension/~/sms',
    ]);
    const [token, message] = fake.requests;
    expect(token!.headers.authorization).toBe(basic('rc-app-1', 'rc-secret'));
    expect(Object.fromEntries(token!.form)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'jwt.assertion.value',
    });
    expect(message!.headers.authorization).toBe('Bearer rc-access');
    expect(message!.json).toEqual({ from: { phoneNumber: '+15550199' }, to: [{ phoneNumber: PHONE }], text: TEXT });
  });

  it("a refused access token is renewed once; a refused JWT fails with RingCentral's description", async () => {
    let sent = 0;
    fake.reply = routes(() =>
      sent++ === 0 ? { status: 401, body: { errorCode: 'TokenInvalid', message: 'Invalid token' } } : { status: 200, body: { id: 7 } },
    );
    expect((await send(sms('ring-central', credentials('rc-app-2')))).id).toBe('7');
    expect(fake.requests.map((r) => r.path.split('/').at(-1))).toEqual(['token', 'sms', 'token', 'sms']);

    fake.reset();
    fake.reply = () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT' } });
    const error = await failure(send(sms('ring-central', credentials('rc-app-3'))));
    expect(error.message).toBe('RingCentral answered 400: Invalid JWT');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('Unifonic', () => {
  it('posts the form with the AppSid; the sender is the Sender ID unless the trigger names one', async () => {
    fake.reply = () => ({
      status: 200,
      body: { success: true, message: '', errorCode: 'ER-00', data: { MessageID: 'uf-1', NumberOfUnits: 1 } },
    });
    const result = await send(sms('unifonic', { appSid: 'app-sid', senderId: 'ACME' }));
    expect(result.id).toBe('uf-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/rest/SMS/messages' });
    expect(Object.fromEntries(request!.form)).toEqual({
      AppSid: 'app-sid',
      SenderID: 'ACME',
      Recipient: '15550100',
      Body: TEXT,
      responseType: 'JSON',
    });

    await send(sms('unifonic', { appSid: 'app-sid', senderId: 'ACME' }, { overrides: { from: 'PROMO' } }));
    expect(fake.requests[1]!.form.get('SenderID')).toBe('PROMO');
  });

  it('its success: false fails with the message and code', async () => {
    fake.reply = () => ({ status: 200, body: { success: false, message: 'Wrong AppSid', errorCode: 'ER-01' } });
    const error = await failure(send(sms('unifonic', { appSid: 'wrong', senderId: 'ACME' })));
    expect(error.message).toBe('Unifonic refused the message: Wrong AppSid (ER-01)');
  });
});

describe('smsmode', () => {
  it('posts the message with the key in X-Api-Key', async () => {
    fake.reply = () => ({ status: 201, body: { messageId: 'sm-1', acceptedAt: '2030-01-01T00:00:00Z', status: { value: 'ENROUTE' } } });
    const result = await send(sms('smsmode', { apiKey: 'sm-key' }));
    expect(result.id).toBe('sm-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/sms/v1/messages' });
    expect(request!.headers['x-api-key']).toBe('sm-key');
    expect(request!.json).toEqual({ from: '+15550199', recipient: { to: PHONE }, body: { text: TEXT } });
  });

  it("a refusal is final with smsmode's message", async () => {
    fake.reply = () => ({ status: 401, body: { status: 401, message: 'Invalid API key' } });
    const error = await failure(send(sms('smsmode', { apiKey: 'wrong' })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('smsmode answered 401: Invalid API key');
  });
});

// The retry rule every HTTP provider shares, for each of these.
const sendable: [string, Record<string, unknown>][] = [
  ['sinch', { apiToken: 't', region: 'us', accountSid: 'p' }],
  ['bandwidth', { user: 'u', password: 'p', accountSid: 'a' }],
  ['clickatell', { apiKey: 'k' }],
  ['termii', { apiKey: 'k' }],
  ['africas-talking', { apiKey: 'k', user: 'u' }],
  ['clicksend', { user: 'u', apiKey: 'k' }],
  ['sms77', { apiKey: 'k' }],
  ['brevo-sms', { apiKey: 'k' }],
  ['sendchamp', { apiKey: 'k' }],
  ['simpletexting', { apiKey: 'k' }],
  ['unifonic', { appSid: 'a', senderId: 's' }],
  ['smsmode', { apiKey: 'k' }],
];
describe('transient failures', () => {
  it.each(sendable)('%s: a 503 is tried three times, then fails with the answer', async (providerId, credentials) => {
    fake.reply = () => ({ status: 503, body: { message: 'down for maintenance' } });
    const error = await failure(send(sms(providerId, credentials)));
    expect(fake.requests).toHaveLength(3);
    expect(error.raw).toMatchObject({ status: 503, attempts: 3 });
    expect(error.message).toMatch(/ answered 503: down for maintenance$/);
  });

  it('an answer that never comes is tried three times', async () => {
    fake.reply = () => ({ status: 200, body: { id: 'late' }, delayMs: 2_000 });
    const late = await failure(send(sms('sinch', { apiToken: 't', region: 'us', accountSid: 'p' })));
    expect(fake.requests).toHaveLength(3);
    expect(late.raw).toEqual({ error: 'timeout', attempts: 3 });
  });
});

// ---- through the API ----------------------------------------------------------------------------

let api: LocalApi;
let env: TestEnv;
beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
});
afterAll(() => api.close());

describe('integrations of these providers', () => {
  const from = { from: '+15550199' };
  // Valid credentials of each, by the catalogue; and what each refuses (422 with these paths).
  const providers: ActivationCase[] = [
    {
      providerId: 'sinch',
      valid: { apiToken: 't', region: 'eu', accountSid: 'plan' },
      malformed: { apiToken: 't', region: 'eu' },
      errors: ['credentials.accountSid'],
    },
    {
      providerId: 'sinch',
      valid: { apiToken: 't', region: 'CA', accountSid: 'plan' },
      malformed: { apiToken: 't', region: 'evil.example/x', accountSid: 'plan' },
      errors: ['credentials.region'],
    },
    {
      providerId: 'bandwidth',
      valid: { user: 'u', password: 'p', accountSid: 'a' },
      malformed: { user: 'u', password: 7, accountSid: 'a' },
      errors: ['credentials.password'],
    },
    { providerId: 'clickatell', valid: { apiKey: 'k' }, malformed: { apiKey: ' ' }, errors: ['credentials.apiKey'] },
    { providerId: 'termii', valid: { apiKey: 'k' }, malformed: {}, errors: ['credentials.apiKey'] },
    {
      providerId: 'africas-talking',
      valid: { apiKey: 'k', user: 'u' },
      malformed: { apiKey: 'k', user: null },
      errors: ['credentials.user'],
    },
    { providerId: 'clicksend', valid: { user: 'u', apiKey: 'k' }, malformed: { user: ['u'], apiKey: 'k' }, errors: ['credentials.user'] },
    { providerId: 'sms77', valid: { apiKey: 'k' }, malformed: { apiKey: 42 }, errors: ['credentials.apiKey'] },
    { providerId: 'brevo-sms', valid: { apiKey: 'k' }, malformed: { apiKey: '' }, errors: ['credentials.apiKey'] },
    { providerId: 'sendchamp', valid: { apiKey: 'k' }, malformed: { apiKey: {} }, errors: ['credentials.apiKey'] },
    { providerId: 'simpletexting', valid: { apiKey: 'k' }, malformed: { apiKey: true }, errors: ['credentials.apiKey'] },
    {
      providerId: 'azure-sms',
      valid: { accessKey: 'endpoint=https://acme.communication.azure.com/;accesskey=a2V5' },
      malformed: { accessKey: 'a2V5' },
      errors: ['credentials.accessKey'],
    },
    {
      providerId: 'ring-central',
      valid: { clientId: 'c', secretKey: 's', token: 'jwt', secure: true },
      malformed: { clientId: 'c', secretKey: 's' },
      errors: ['credentials.token'],
    },
    {
      providerId: 'unifonic',
      valid: { appSid: 'a', senderId: 'ACME' },
      malformed: { appSid: 'a', senderId: 3 },
      errors: ['credentials.senderId'],
    },
    { providerId: 'smsmode', valid: { apiKey: 'k' }, malformed: { apiKey: '\t' }, errors: ['credentials.apiKey'] },
  ];

  it.each(providers)('$providerId: active with valid credentials (201), refused with malformed ones (422, nothing saved)', (provider) =>
    expectActivation(env.client, 'sms', provider, from),
  );

  // Every SMS provider of the catalogue that delivers, whoever added it: each required credential
  // of the wrong type is refused by name.
  const deliverable = PROVIDERS.filter((p) => p.channel === 'sms' && canDeliver(p.id, 'sms') && p.credentials.some((c) => c.required));
  it.each(deliverable.map((p) => [p.id, p.credentials.filter((c) => c.required).map((c) => c.key)] as const))(
    '%s: every required credential malformed is a 422 naming each, nothing saved',
    async (providerId, required) => {
      const identifier = `malformed-${providerId}-${rand()}`;
      const credentials = Object.fromEntries(required.map((key) => [key, 42]));
      const refused = await env.client.post('/v1/integrations', { providerId, channel: 'sms', active: true, identifier, credentials });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(Object.keys(refused.body.errors).sort()).toEqual(required.map((key) => `credentials.${key}`).sort());
      const listed = (await env.client.get('/v1/integrations')).body as any[];
      expect(listed.some((i) => i.identifier === identifier)).toBe(false);
    },
  );

  // What each check calls; none of them sends a message.
  const checks: { providerId: string; credentials: Record<string, unknown>; method: string; url: string; auth?: [string, string] }[] = [
    {
      providerId: 'sinch',
      credentials: { apiToken: 'sn', region: 'eu', accountSid: 'plan-1' },
      method: 'GET',
      url: '/xms/v1/plan-1/batches?page_size=1',
      auth: ['authorization', 'Bearer sn'],
    },
    {
      providerId: 'bandwidth',
      credentials: { user: 'u', password: 'p', accountSid: '99' },
      method: 'GET',
      url: '/api/v2/users/99/messages?limit=1',
      auth: ['authorization', basic('u', 'p')],
    },
    { providerId: 'termii', credentials: { apiKey: 'tm' }, method: 'GET', url: '/api/get-balance?api_key=tm' },
    {
      providerId: 'africas-talking',
      credentials: { apiKey: 'at', user: 'acme' },
      method: 'GET',
      url: '/version1/user?username=acme',
      auth: ['apikey', 'at'],
    },
    {
      providerId: 'clicksend',
      credentials: { user: 'u', apiKey: 'cs' },
      method: 'GET',
      url: '/v3/account',
      auth: ['authorization', basic('u', 'cs')],
    },
    { providerId: 'brevo-sms', credentials: { apiKey: 'bv' }, method: 'GET', url: '/v3/account', auth: ['api-key', 'bv'] },
    {
      providerId: 'sendchamp',
      credentials: { apiKey: 'sc' },
      method: 'GET',
      url: '/api/v1/wallet/wallet_balance',
      auth: ['authorization', 'Bearer sc'],
    },
    {
      providerId: 'ring-central',
      credentials: { clientId: 'rc', secretKey: 'rs', token: 'jwt' },
      method: 'POST',
      url: '/restapi/oauth/token',
      auth: ['authorization', basic('rc', 'rs')],
    },
  ];

  it.each(checks)(
    '$providerId: check: true calls what sends nothing, and a refusal fails the request (400)',
    async ({ providerId, credentials, method, url, auth }) => {
      fake.reply = () => ({ status: 200, body: {} });
      const checked = await env.client.post('/v1/integrations', {
        providerId,
        channel: 'sms',
        credentials: { ...credentials, ...from, baseUrl: fake.url },
        check: true,
      });
      expect(checked.status, JSON.stringify(checked.body)).toBe(201);
      expect(checked.headers.get('warning')).toBeNull();
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({ method, url });
      if (auth) expect(fake.requests[0]!.headers[auth[0]]).toBe(auth[1]);

      fake.reply = () => ({ status: 401, body: { message: 'Unauthorized key' } });
      const identifier = `refused-${providerId}-${rand()}`;
      const refused = await env.client.post('/v1/integrations', {
        providerId,
        channel: 'sms',
        identifier,
        credentials: { ...credentials, ...from, baseUrl: fake.url },
        check: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(new RegExp(`^Integration check failed for ${providerId}: .* answered 401: Unauthorized key$`));
      const listed = (await env.client.get('/v1/integrations')).body as any[];
      expect(listed.some((i) => i.identifier === identifier)).toBe(false);
    },
  );

  const unchecked: [string, Record<string, unknown>][] = [
    ['clickatell', { apiKey: 'k' }],
    ['sms77', { apiKey: 'k' }],
    ['simpletexting', { apiKey: 'k' }],
    ['azure-sms', { accessKey: 'endpoint=https://acme.communication.azure.com/;accesskey=a2V5' }],
    ['unifonic', { appSid: 'a', senderId: 'ACME' }],
    ['smsmode', { apiKey: 'k' }],
  ];
  it.each(unchecked)('%s: check: true says in a warning that nothing could be checked, and saves', async (providerId, credentials) => {
    const created = await env.client.post('/v1/integrations', {
      providerId,
      channel: 'sms',
      credentials: { ...credentials, ...from, baseUrl: fake.url },
      check: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(
      `299 - "${providerId} has no call that tests credentials without sending anything: they were not checked"`,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('end to end', () => {
  it('a trigger delivers through a primary RingCentral integration, keeping its message id', async () => {
    const own = (await createTestOrg(api.url)).dev;
    const credentials = { clientId: 'rc-e2e', secretKey: 'rc-secret', token: 'jwt-e2e', from: '+15550199', baseUrl: fake.url };
    const created = await own.client.post('/v1/integrations', { providerId: 'ring-central', channel: 'sms', active: true, credentials });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await own.client.post(`/v1/integrations/${created.body.data._id}/set-primary`, {})).status).toBeLessThan(300);
    const workflowId = `wf-${rand()}`;
    const workflow = await own.client.post('/v2/workflows', {
      name: workflowId,
      workflowId,
      active: true,
      steps: [{ name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: 'Code {{payload.code}}' } }],
    });
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);
    fake.reply = (request) =>
      request.path === '/restapi/oauth/token'
        ? { status: 200, body: { access_token: 'rc-e2e-access', expires_in: 3600 } }
        : { status: 200, body: { id: 880011, messageStatus: 'Queued' } };

    const subscriberId = `sub-${rand()}`;
    const txid = await triggerWith(own.client, { name: workflowId, to: { subscriberId, phone: PHONE }, payload: { code: '4711' } });
    const item = await settledOne(own.client, txid);
    expect(item.jobs[0].status).toBe('completed');
    const [message] = await messagesOf(own.client, subscriberId, 'sms');
    expect(message).toMatchObject({ status: 'sent', providerId: 'ring-central', content: 'Code 4711', identifier: '880011' });
    const sent = fake.requests.find((r) => r.path.endsWith('/sms'));
    expect(sent!.headers.authorization).toBe('Bearer rc-e2e-access');
    expect(sent!.json).toEqual({ from: { phoneNumber: '+15550199' }, to: [{ phoneNumber: PHONE }], text: 'Code 4711' });
  });
});
