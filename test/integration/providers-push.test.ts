import { createHmac, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { newId } from '#lib/ids.ts';
import type { Delivery } from '#lib/providers/provider.ts';
import { apnsOrigin } from '#lib/providers/push/apns.ts';
import { closeHttp2Sessions } from '#lib/providers/push/http2-request.ts';
import { InvalidTokenError } from '#lib/providers/push/invalid-token.ts';
import { createTestOrg, startTestApi, type ApiClient } from '../support/api.ts';
import { deliveryOf } from '../support/deliveries.ts';
import { startFakeHttp2, type FakeHttp2 } from '../support/fake-http2.ts';
import { startFakeApi, type FakeApi, type RecordedRequest } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';
import { createWorkflow, rand, settledOne, trigger } from '../support/pipeline.ts';

// Push providers against real local servers: an HTTP server standing in for FCM (and Google's
// OAuth token endpoint), Expo, OneSignal, Pushpad and a push webhook, and an HTTP/2 server for
// APNs. Each checks the exact request (path, auth, body) and answers success, 4xx, 5xx or
// nothing in time. Keys are generated here: an RSA service account for FCM, a P-256 .p8 for APNs.
// Then end to end through the API and queues, including a dead token leaving the subscriber.

process.env.PROVIDER_TIMEOUT_MS = '400';
process.env.PROVIDER_RETRY_BACKOFF_MS = '20';

let fake: FakeApi;
let h2: FakeHttp2;
beforeAll(async () => {
  fake = await startFakeApi();
  h2 = await startFakeHttp2();
});
afterAll(async () => {
  closeHttp2Sessions();
  await h2.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  h2.reset();
});

const push = (providerId: string, credentials: Record<string, unknown>, fields: Partial<Delivery> = {}) =>
  deliveryOf(providerId, 'push', credentials, { to: 'device-token-1', subject: 'New comment', content: 'Bob replied', ...fields });

/** A JWT's parts, after checking its signature with `key`. */
function verifiedJwt(jwt: string, key: KeyObject, algorithm: 'RS256' | 'ES256') {
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    algorithm === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  expect(ok).toBe(true);
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: decode(header), claims: decode(claims) };
}

// ---- FCM --------------------------------------------------------------------------------------

function serviceAccount(tokenUri: string, clientEmail = `svc-${newId().slice(-6)}@acme-app.iam.gserviceaccount.com`) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const json = {
    type: 'service_account',
    project_id: 'acme-app',
    private_key_id: 'key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    token_uri: tokenUri,
  };
  return { json: JSON.stringify(json), publicKey, clientEmail };
}

/** FCM and its token endpoint on the fake server; `send` answers the message requests. */
function fcmServer(sendReply: (request: RecordedRequest, sendIndex: number) => { status?: number; body?: unknown; delayMs?: number }) {
  let tokens = 0;
  let sends = 0;
  fake.reply = (request) => {
    if (request.path === '/token')
      return { status: 200, body: { access_token: `ya29.token-${++tokens}`, expires_in: 3599, token_type: 'Bearer' } };
    return sendReply(request, sends++);
  };
}

const fcmError = (code: number, status: string, message: string, details: unknown[] = []) => ({
  status: code,
  body: { error: { code, message, status, details } },
});

describe('FCM (HTTP v1 with service-account OAuth)', () => {
  it('gets an access token with a signed JWT grant, then sends the message; the token is reused', async () => {
    const account = serviceAccount(`${fake.url}/token`);
    fcmServer(() => ({ status: 200, body: { name: 'projects/acme-app/messages/0:1' } }));
    const credentials = { serviceAccount: account.json, baseUrl: fake.url };
    const result = await send(
      push('fcm', credentials, { overrides: { data: { postId: 7, kind: 'comment' }, android: { priority: 'high' } } }),
    );
    expect(result.id).toBe('projects/acme-app/messages/0:1');

    const [grant, message] = fake.requests;
    expect(grant).toMatchObject({ method: 'POST', path: '/token' });
    expect(grant!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(grant!.form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { header, claims } = verifiedJwt(grant!.form.get('assertion')!, account.publicKey, 'RS256');
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
    expect(claims).toMatchObject({
      iss: account.clientEmail,
      aud: `${fake.url}/token`,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
    });
    expect(claims.exp - claims.iat).toBe(3600);

    expect(message).toMatchObject({ method: 'POST', path: '/v1/projects/acme-app/messages:send' });
    expect(message!.headers.authorization).toBe('Bearer ya29.token-1');
    expect(message!.json).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: 'New comment', body: 'Bob replied' },
        data: { postId: '7', kind: 'comment' },
        android: { priority: 'high' },
      },
    });

    await send(push('fcm', credentials, { to: 'device-token-2' }));
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/token',
      '/v1/projects/acme-app/messages:send',
      '/v1/projects/acme-app/messages:send',
    ]);
    expect(fake.requests[2]!.headers.authorization).toBe('Bearer ya29.token-1');
  });

  it('gets a new access token once when FCM says the one it has is no longer valid', async () => {
    const credentials = { serviceAccount: serviceAccount(`${fake.url}/token`).json, baseUrl: fake.url };
    fcmServer((_r, i) =>
      i === 0
        ? { status: 200, body: { name: 'm/1' } }
        : i === 1
          ? fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.')
          : { status: 200, body: { name: 'm/2' } },
    );
    await send(push('fcm', credentials));
    expect((await send(push('fcm', credentials))).id).toBe('m/2');
    expect(fake.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/token', undefined],
      ['/v1/projects/acme-app/messages:send', 'Bearer ya29.token-1'],
      ['/v1/projects/acme-app/messages:send', 'Bearer ya29.token-1'],
      ['/token', undefined],
      ['/v1/projects/acme-app/messages:send', 'Bearer ya29.token-2'],
    ]);
  });

  it('reports UNREGISTERED and an invalid registration token as invalid tokens; other 4xx as plain failures', async () => {
    const credentials = { serviceAccount: serviceAccount(`${fake.url}/token`).json, baseUrl: fake.url };
    const unregistered = fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', [
      { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
    ]);
    fcmServer(() => unregistered);
    const gone = await failure(send(push('fcm', credentials, { to: 'old-token' })));
    expect(gone).toBeInstanceOf(InvalidTokenError);
    expect((gone as InvalidTokenError).token).toBe('old-token');
    expect(gone.raw).toEqual({ status: 404, body: unregistered.body });

    fcmServer(() =>
      fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
      ]),
    );
    expect(await failure(send(push('fcm', credentials, { to: 'garbage' })))).toBeInstanceOf(InvalidTokenError);

    fcmServer(() =>
      fcmError(400, 'INVALID_ARGUMENT', 'Invalid value at message.data[0].value', [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'message.data[0].value', description: 'Invalid value' }],
        },
      ]),
    );
    const other = await failure(send(push('fcm', credentials)));
    expect(other).not.toBeInstanceOf(InvalidTokenError);
    expect(other.message).toBe('FCM answered 400: Invalid value at message.data[0].value');
  });

  it('retries 5xx and timeouts, then fails with the last answer', async () => {
    const credentials = { serviceAccount: serviceAccount(`${fake.url}/token`).json, baseUrl: fake.url };
    fcmServer((_r, i) =>
      i < 2 ? fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.') : { status: 200, body: { name: 'm/3' } },
    );
    expect((await send(push('fcm', credentials))).id).toBe('m/3');

    fcmServer(() => ({ status: 200, body: { name: 'late' }, delayMs: 1_000 }));
    const error = await failure(send(push('fcm', credentials)));
    expect(error.raw).toMatchObject({ error: 'timeout', attempts: 3 });
  });

  it('refuses a service account that is not one (422 when the integration is active), and a token endpoint that says no', async () => {
    const error = await failure(send(push('fcm', { serviceAccount: '{"project_id": "x"}' })));
    expect(error.message).toBe('The FCM service account (serviceAccount) needs project_id, client_email and private_key');

    const account = serviceAccount(`${fake.url}/token`);
    fake.reply = () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
    const refused = await failure(send(push('fcm', { serviceAccount: account.json, baseUrl: fake.url })));
    expect(refused.message).toBe('Google OAuth answered 400: Invalid JWT Signature.');
  });
});

// ---- APNs ------------------------------------------------------------------------------------

describe('APNs (HTTP/2, token auth)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const credentials = (extra: Record<string, unknown> = {}) => ({
    secretKey: p8,
    apiKey: 'KEY123ABCD',
    projectName: 'TEAM123456',
    applicationId: 'com.acme.app',
    baseUrl: h2.url,
    ...extra,
  });

  it('POSTs the alert to /3/device/<token> with an ES256 provider token, topic and push type', async () => {
    h2.reply = () => ({ status: 200, headers: { 'apns-id': 'A1B2C3D4-0000-0000-0000-000000000001' } });
    const result = await send(push('apns', credentials(), { overrides: { data: { postId: 7 }, aps: { sound: 'default', badge: 3 } } }));
    expect(result.id).toBe('A1B2C3D4-0000-0000-0000-000000000001');
    const [request] = h2.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/3/device/device-token-1' });
    expect(request!.headers['apns-topic']).toBe('com.acme.app');
    expect(request!.headers['apns-push-type']).toBe('alert');
    const jwt = String(request!.headers.authorization).replace(/^bearer /, '');
    const { header, claims } = verifiedJwt(jwt, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), 'ES256');
    expect(header).toEqual({ alg: 'ES256', kid: 'KEY123ABCD' });
    expect(claims).toEqual({ iss: 'TEAM123456', iat: expect.any(Number) });
    expect(request!.json).toEqual({ postId: 7, aps: { alert: { title: 'New comment', body: 'Bob replied' }, sound: 'default', badge: 3 } });

    // The same connection and token serve the next push.
    await send(
      push('apns', credentials(), { to: 'device-token-2', providerData: { _passthrough: { headers: { 'apns-priority': '5' } } } }),
    );
    expect(h2.requests[1]!.headers.authorization).toBe(request!.headers.authorization);
    expect(h2.requests[1]!.headers['apns-priority']).toBe('5');
  });

  it('reports 410 Unregistered and 400 BadDeviceToken as invalid tokens; other refusals as failures', async () => {
    h2.reply = () => ({ status: 410, body: { reason: 'Unregistered', timestamp: 1700000000000 } });
    const gone = await failure(send(push('apns', credentials(), { to: 'stale' })));
    expect(gone).toBeInstanceOf(InvalidTokenError);
    expect(gone.message).toBe('APNs answered 410: Unregistered');
    expect(gone.raw).toEqual({ status: 410, body: { reason: 'Unregistered', timestamp: 1700000000000 } });

    h2.reply = () => ({ status: 400, body: { reason: 'BadDeviceToken' } });
    expect(await failure(send(push('apns', credentials())))).toBeInstanceOf(InvalidTokenError);

    h2.reply = () => ({ status: 400, body: { reason: 'TopicDisallowed' } });
    const topic = await failure(send(push('apns', credentials())));
    expect(topic).not.toBeInstanceOf(InvalidTokenError);
    expect(topic.message).toBe('APNs answered 400: TopicDisallowed');
  });

  it('signs a new provider token once when APNs says it expired', async () => {
    h2.reply = (_r, i) =>
      i === 0 ? { status: 403, body: { reason: 'ExpiredProviderToken' } } : { status: 200, headers: { 'apns-id': 'id-2' } };
    const own = credentials({ apiKey: 'KEYEXPIRED' });
    expect((await send(push('apns', own))).id).toBe('id-2');
    expect(h2.requests).toHaveLength(2);
  });

  it('retries 503 and 429, and gives up on a stream that never answers', async () => {
    h2.reply = (_r, i) =>
      i === 0
        ? { status: 503, body: { reason: 'ServiceUnavailable' } }
        : i === 1
          ? { status: 429, body: { reason: 'TooManyRequests' } }
          : { status: 200, headers: { 'apns-id': 'id-3' } };
    expect((await send(push('apns', credentials()))).id).toBe('id-3');
    expect(h2.requests).toHaveLength(3);

    h2.reset();
    h2.reply = () => ({ status: 200, delayMs: 1_000 });
    const error = await failure(send(push('apns', credentials())));
    expect(error.message).toMatch(/APNs did not answer within/);
    expect(error.raw).toMatchObject({ attempts: 3 });
  });

  it('goes to production only when the integration says so; a bad key is refused', async () => {
    expect(apnsOrigin({ secure: true })).toBe('https://api.push.apple.com');
    expect(apnsOrigin({})).toBe('https://api.sandbox.push.apple.com');
    expect((await failure(send(push('apns', credentials({ secretKey: 'not a key' }))))).message).toBe(
      'The APNs private key (secretKey) is not a valid .p8 key',
    );
    expect(h2.requests).toHaveLength(0);
  });
});

// ---- Expo, OneSignal, Pushpad, push webhook ---------------------------------------------------

describe('Expo', () => {
  const credentials = () => ({ apiKey: 'expo-access-token', baseUrl: fake.url });

  it('sends one message with the access token and returns the ticket id', async () => {
    fake.reply = () => ({ status: 200, body: { data: [{ status: 'ok', id: 'ticket-1' }] } });
    const result = await send(
      push('expo', credentials(), { to: 'ExponentPushToken[abc]', overrides: { data: { postId: 7 }, sound: 'default' } }),
    );
    expect(result.id).toBe('ticket-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/--/api/v2/push/send' });
    expect(request!.headers.authorization).toBe('Bearer expo-access-token');
    expect(request!.json).toEqual({
      to: 'ExponentPushToken[abc]',
      title: 'New comment',
      body: 'Bob replied',
      data: { postId: 7 },
      sound: 'default',
    });
  });

  it('reports DeviceNotRegistered as an invalid token; other ticket and request errors as failures', async () => {
    fake.reply = () => ({
      status: 200,
      body: {
        data: [
          {
            status: 'error',
            message: '"ExponentPushToken[old]" is not a registered push notification recipient',
            details: { error: 'DeviceNotRegistered' },
          },
        ],
      },
    });
    const gone = await failure(send(push('expo', credentials(), { to: 'ExponentPushToken[old]' })));
    expect(gone).toBeInstanceOf(InvalidTokenError);

    fake.reply = () => ({
      status: 200,
      body: { data: [{ status: 'error', message: 'Message too big', details: { error: 'MessageTooBig' } }] },
    });
    const big = await failure(send(push('expo', credentials())));
    expect(big).not.toBeInstanceOf(InvalidTokenError);
    expect(big.message).toBe('Expo refused the message: Message too big');

    fake.reply = () => ({ status: 401, body: { errors: [{ code: 'UNAUTHORIZED', message: 'Invalid access token' }] } });
    expect((await failure(send(push('expo', credentials())))).message).toBe('Expo answered 401: Invalid access token');
  });
});

describe('OneSignal', () => {
  it('creates a notification for the subscription id with the REST API key', async () => {
    fake.reply = () => ({ status: 200, body: { id: 'b98881cc-1e94-4366-bbd9-db8f3429292b', external_id: null } });
    const result = await send(
      push(
        'one-signal',
        { applicationId: 'app-1', apiKey: 'os_v2_app_key', baseUrl: fake.url },
        { to: 'sub-id-1', overrides: { data: { postId: 7 } } },
      ),
    );
    expect(result.id).toBe('b98881cc-1e94-4366-bbd9-db8f3429292b');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/notifications' });
    expect(request!.query.get('c')).toBe('push');
    expect(request!.headers.authorization).toBe('Key os_v2_app_key');
    expect(request!.json).toEqual({
      app_id: 'app-1',
      target_channel: 'push',
      include_subscription_ids: ['sub-id-1'],
      headings: { en: 'New comment' },
      contents: { en: 'Bob replied' },
      data: { postId: 7 },
    });
    await send(push('one-signal', { applicationId: 'app-1', apiKey: 'legacy-key', baseUrl: fake.url }));
    expect(fake.requests[1]!.headers.authorization).toBe('Basic legacy-key');
  });

  it('fails when OneSignal reached nobody (200 without an id)', async () => {
    fake.reply = () => ({ status: 200, body: { id: '', errors: ['All included players are not subscribed'] } });
    const error = await failure(send(push('one-signal', { applicationId: 'app-1', apiKey: 'k', baseUrl: fake.url })));
    expect(error.message).toBe('OneSignal did not send the notification: All included players are not subscribed');
  });
});

describe('Pushpad', () => {
  it('creates a notification for the uid with the auth token', async () => {
    fake.reply = () => ({ status: 201, body: { id: 123456, scheduled: 1, uids: ['uid-1'] } });
    const result = await send(
      push(
        'pushpad',
        { apiKey: 'pp-token', applicationId: '42', baseUrl: fake.url },
        { to: 'uid-1', overrides: { data: { postId: 7 }, target_url: 'https://acme.test/p/7' } },
      ),
    );
    expect(result.id).toBe('123456');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/projects/42/notifications' });
    expect(request!.headers.authorization).toBe('Token token="pp-token"');
    expect(request!.json).toEqual({
      notification: { title: 'New comment', body: 'Bob replied', custom_data: '{"postId":7}', target_url: 'https://acme.test/p/7' },
      uids: ['uid-1'],
    });
  });

  it('fails on a 403 with Pushpad’s answer', async () => {
    fake.reply = () => ({ status: 403, body: { error: 'Forbidden' } });
    expect((await failure(send(push('pushpad', { apiKey: 'x', applicationId: '42', baseUrl: fake.url })))).message).toBe(
      'Pushpad answered 403: Forbidden',
    );
  });
});

describe('push webhook', () => {
  it('POSTs the push signed with HMAC-SHA256 of the body', async () => {
    fake.reply = () => ({ status: 200, body: { id: 'hook-42' } });
    const result = await send(
      push('push-webhook', { webhookUrl: `${fake.url}/push`, secretKey: 'whsec' }, { overrides: { data: { postId: 7 } } }),
    );
    expect(result.id).toBe('hook-42');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/push' });
    expect(request!.json).toEqual({ target: ['device-token-1'], title: 'New comment', content: 'Bob replied', data: { postId: 7 } });
    expect(request!.headers['x-signature-sha256']).toBe(createHmac('sha256', 'whsec').update(request!.text).digest('hex'));
  });

  it('retries a 502 and fails after three', async () => {
    fake.reply = () => ({ status: 502, body: 'bad gateway' });
    const error = await failure(send(push('push-webhook', { webhookUrl: `${fake.url}/push`, secretKey: 'whsec' })));
    expect(error.raw).toMatchObject({ status: 502, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });
});

// ---- through the API ----------------------------------------------------------------------------

describe('end to end: API → queues → push provider', () => {
  let api: LocalApi;
  let client: ApiClient;
  let workflowId: string;

  beforeAll(async () => {
    api = await startTestApi();
    client = (await createTestOrg(api.url)).dev.client;
    const account = serviceAccount(`${fake.url}/token`);
    const res = await client.post('/v1/integrations', {
      providerId: 'fcm',
      channel: 'push',
      active: true,
      credentials: { serviceAccount: account.json, baseUrl: fake.url },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    workflowId = await createWorkflow(client, [
      {
        name: 'Push',
        stepId: 'push',
        type: 'push',
        controlValues: { subject: 'Hi {{subscriber.firstName}}', body: '{{payload.who}} replied' },
      },
    ]);
  });
  afterAll(() => api.close());

  async function subscriberWithTokens(tokens?: string[]): Promise<string> {
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' })).status).toBe(201);
    if (tokens) {
      const res = await client.put(`/v1/subscribers/${subscriberId}/credentials`, {
        providerId: 'fcm',
        credentials: { deviceTokens: tokens },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return subscriberId;
  }

  /** Triggers the push workflow for `to`; its notification once every job is final. */
  const triggerPush = async (to: string, extra: Record<string, unknown> = {}): Promise<any> =>
    settledOne(client, await trigger(client, workflowId, to, { who: 'Bob' }, extra));

  async function pushMessages(subscriberId: string): Promise<any[]> {
    const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=push&limit=10`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const details = (job: any): [string, string][] => job.executionDetails.map((d: any) => [d.detail, d.status]);

  it('sends to every device token, and removes the one FCM calls unregistered from the subscriber', async () => {
    const subscriberId = await subscriberWithTokens([`good-${rand()}`, `dead-${rand()}`]);
    fake.reply = (request) => {
      if (request.path === '/token') return { status: 200, body: { access_token: 'ya29.e2e', expires_in: 3599 } };
      const token: string = request.json?.message?.token ?? '';
      return token.startsWith('dead-')
        ? fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', [
            { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
          ])
        : { status: 200, body: { name: `projects/acme-app/messages/${token}` } };
    };
    const before = (await client.get(`/v2/subscribers/${subscriberId}`)).body.channels[0].credentials.deviceTokens as string[];

    const item = await triggerPush(subscriberId, { overrides: { fcm: { data: { postId: 7 } } } });
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Firebase Cloud Messaging provider was selected', 'Pending'],
      ['Message created', 'Pending'],
      ['Message sent', 'Success'],
      ['Unexpected provider error', 'Failed'],
      ['Invalid push device token was removed from subscriber', 'Warning'],
    ]);
    const sent = fake.requests.filter((r) => r.path === '/v1/projects/acme-app/messages:send' && before.includes(r.json?.message?.token));
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers.authorization).toBe('Bearer ya29.e2e');
    expect(sent.map((r) => r.json.message.notification)).toEqual([
      { title: 'Hi Ada', body: 'Bob replied' },
      { title: 'Hi Ada', body: 'Bob replied' },
    ]);
    expect(sent[0]!.json.message.data).toEqual({ postId: '7' });

    const [message] = await pushMessages(subscriberId);
    expect(message).toMatchObject({
      channel: 'push',
      status: 'sent',
      providerId: 'fcm',
      subject: 'Hi Ada',
      content: 'Bob replied',
      deviceTokens: before,
      identifier: `projects/acme-app/messages/${before[0]}`,
    });

    const after = await client.get(`/v2/subscribers/${subscriberId}`);
    expect(after.body.channels).toHaveLength(1);
    expect(after.body.channels[0]).toMatchObject({ providerId: 'fcm', credentials: { deviceTokens: [before[0]] } });
  });

  it('ends as the reference does without tokens, and without any push channel', async () => {
    const noTokens = await subscriberWithTokens([]);
    const empty = await triggerPush(noTokens);
    expect(empty.jobs[0].status).toBe('canceled');
    expect(details(empty.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Subscriber credentials is missing the tokens for sending a push notification message', 'Failed'],
    ]);
    const [warning] = await pushMessages(noTokens);
    expect(warning).toMatchObject({
      status: 'warning',
      providerId: 'fcm',
      errorText: 'Subscriber credentials is missing the tokens for sending a push notification message',
    });

    const noChannel = await subscriberWithTokens();
    const none = await triggerPush(noChannel);
    expect(none.jobs[0].status).toBe('canceled');
    expect(details(none.jobs[0])).toEqual([
      ['Step queued', 'Pending'],
      ['Subscriber does not have a configured channel', 'Warning'],
    ]);
    expect(await pushMessages(noChannel)).toEqual([]);
  });

  it('refuses an active FCM integration whose service account is not one (422)', async () => {
    const res = await client.post('/v1/integrations', {
      providerId: 'fcm',
      channel: 'push',
      active: true,
      credentials: { serviceAccount: 'not json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors['credentials.serviceAccount'].messages).toEqual(['The FCM service account (serviceAccount) is not valid JSON']);
  });
});
