import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '#lib/providers/provider.ts';
import { clientForSuite, expectActivation, uncheckedWarning, type ActivationCase } from '../support/provider-activation.ts';
import { deliveryOf } from '../support/deliveries.ts';
import { createWorkflow, rand } from '../support/pipeline.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';

// Pusher Beams and App IO against a local HTTP server standing in for each API: it checks the
// request each documents (path, auth, body) and answers success, refusals, 5xx and 429. Then
// through the API: activation, `check: true`, and a trigger reaching Beams.

const fake = fakeApiForFile();

const push = (providerId: string, credentials: Record<string, unknown>, fields: Partial<Delivery> = {}) =>
  deliveryOf(providerId, 'push', credentials, { to: 'user-1', subject: 'New comment', content: 'Bob replied', ...fields });

// The integration's baseUrl stands for https://<instance>.pushnotifications.pusher.com.
const INSTANCE = '8f9a6e22-2483-49aa-8552-125f1a4c5781';
const beams = () => ({ instanceId: INSTANCE, secretKey: 'beams-secret', baseUrl: fake.url });
const PUBLISH_PATH = `/publish_api/v1/instances/${INSTANCE}/publishes/users`;

describe('Pusher Beams', () => {
  it('publishes to the user with the secret key: APNs, FCM and web forms; the id is the publishId', async () => {
    fake.reply = () => ({ status: 200, body: { publishId: 'pubid-1' } });
    const result = await send(
      push('pusher-beams', beams(), {
        overrides: { data: { postId: 7 }, sound: 'default', badge: 3, icon: 'bell', fcm: { notification: { tag: 'comments' } } },
      }),
    );
    expect(result.id).toBe('pubid-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: PUBLISH_PATH });
    expect(request!.headers.authorization).toBe('Bearer beams-secret');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({
      users: ['user-1'],
      apns: { aps: { alert: { title: 'New comment', body: 'Bob replied' }, badge: 3, sound: 'default' }, data: { postId: 7 } },
      fcm: {
        notification: { title: 'New comment', body: 'Bob replied', icon: 'bell', sound: 'default', tag: 'comments' },
        data: { postId: 7 },
      },
      web: { notification: { title: 'New comment', body: 'Bob replied', icon: 'bell' }, data: { postId: 7 } },
    });
  });

  it('fails at once on a 4xx with Beams’ description; retries 429 and 5xx', async () => {
    fake.reply = () => ({ status: 401, body: { error: 'Unauthorized', description: 'Incorrect API Key' } });
    const error = await failure(send(push('pusher-beams', beams())));
    expect(error.message).toBe('Pusher Beams answered 401: Incorrect API Key');
    expect(error.raw).toEqual({ status: 401, body: { error: 'Unauthorized', description: 'Incorrect API Key' } });
    expect(fake.requests).toHaveLength(1);

    fake.reset();
    fake.reply = (_r, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '0' }, body: { error: 'Too Many Requests' } }
        : i === 1
          ? { status: 500, body: '' }
          : { status: 200, body: { publishId: 'pubid-2' } };
    expect((await send(push('pusher-beams', beams()))).id).toBe('pubid-2');
    expect(fake.requests).toHaveLength(3);
  });

  it('fails when the answer names no publish', async () => {
    fake.reply = () => ({ status: 200, body: {} });
    expect((await failure(send(push('pusher-beams', beams())))).message).toBe('Pusher Beams answered without a message id');
  });
});

describe('App IO', () => {
  const appio = () => ({ AppIOBaseUrl: `${fake.url}/api/v1`, apiKey: 'io-key' });
  const CF = 'RSSMRA80A01H501U';
  const io =
    (profile: Record<string, unknown>, message = { status: 201, body: { id: '01HQRQ0NTXZ5VZ' } }) =>
    (r: { path: string }) =>
      r.path === '/api/v1/profiles' ? { status: 200, body: profile } : message;

  it('checks the citizen’s profile, then sends {fiscal_code, content: {subject, markdown}} with the subscription key', async () => {
    fake.reply = io({ sender_allowed: true, preferred_languages: ['it_IT'] });
    const result = await send(push('appio', appio(), { to: CF, overrides: { time_to_live: 3600 } }));
    expect(result.id).toBe('01HQRQ0NTXZ5VZ');
    expect(fake.requests.map((r) => [r.method, r.path, r.headers['ocp-apim-subscription-key'], r.json])).toEqual([
      ['POST', '/api/v1/profiles', 'io-key', { fiscal_code: CF }],
      [
        'POST',
        '/api/v1/messages',
        'io-key',
        { fiscal_code: CF, content: { subject: 'New comment', markdown: 'Bob replied' }, time_to_live: 3600 },
      ],
    ]);
  });

  it('takes the API key from the trigger’s provider data when the integration has none, and sends it no further', async () => {
    fake.reply = io({ sender_allowed: true });
    await send(push('appio', { AppIOBaseUrl: `${fake.url}/api/v1` }, { to: CF, providerData: { apiKey: 'from-trigger' } }));
    expect(fake.requests.map((r) => r.headers['ocp-apim-subscription-key'])).toEqual(['from-trigger', 'from-trigger']);
    expect(fake.requests[1]!.json).toEqual({ fiscal_code: CF, content: { subject: 'New comment', markdown: 'Bob replied' } });

    const missing = await failure(send(push('appio', { AppIOBaseUrl: `${fake.url}/api/v1` }, { to: CF })));
    expect(missing.message).toMatch(/^App IO needs the service API key/);
    expect(fake.requests).toHaveLength(2);
  });

  it('sends nothing to a citizen who does not accept the service; keeps IO’s reason for a refused message', async () => {
    fake.reply = io({ sender_allowed: false });
    const refused = await failure(send(push('appio', appio(), { to: CF })));
    expect(refused.message).toBe('App IO: the recipient does not accept messages from this service (sender_allowed is not true)');
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/v1/profiles']);

    fake.reset();
    fake.reply = io({ sender_allowed: true }, {
      status: 400,
      body: {
        title: 'Invalid message',
        detail: 'value [Hi] at [root.0.content.subject] is not a valid string of length >= 10',
        status: 400,
      },
    } as any);
    const invalid = await failure(send(push('appio', appio(), { to: CF, subject: 'Hi' })));
    expect(invalid.message).toBe('App IO answered 400: value [Hi] at [root.0.content.subject] is not a valid string of length >= 10');

    fake.reset();
    fake.reply = () => ({ status: 404, body: { title: 'Profile not found', status: 404 } });
    expect((await failure(send(push('appio', appio(), { to: CF })))).message).toBe('App IO answered 404: Profile not found');
  });
});

// ---- through the API ----------------------------------------------------------------------------

describe('through the API', () => {
  const client = clientForSuite();
  const WAIT = { timeout: 20_000, interval: 200 };

  const providers: ActivationCase[] = [
    {
      providerId: 'pusher-beams',
      valid: { instanceId: INSTANCE, secretKey: 's' },
      malformed: { instanceId: 'evil.example/x', secretKey: '' },
      errors: ['credentials.instanceId', 'credentials.secretKey'],
    },
    {
      providerId: 'appio',
      valid: { AppIOBaseUrl: 'https://api.io.italia.it/api/v1', apiKey: 'k' },
      malformed: { AppIOBaseUrl: 'not a url' },
      errors: ['credentials.AppIOBaseUrl'],
    },
  ];

  it.each(providers)('$providerId: active with valid credentials (201), refused with malformed ones (422, nothing saved)', (c) =>
    expectActivation(client, 'push', c),
  );

  it('check: true says neither can be checked without sending', async () => {
    for (const { providerId, valid } of providers) {
      const created = await client.post('/v1/integrations', { providerId, channel: 'push', credentials: valid, check: true });
      expect(created.status).toBe(201);
      expect(created.headers.get('warning')).toBe(uncheckedWarning(providerId));
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('a trigger publishes to each of the subscriber’s Beams users', async () => {
    const integration = await client.post('/v1/integrations', {
      providerId: 'pusher-beams',
      channel: 'push',
      active: true,
      identifier: `beams-${rand()}`,
      credentials: beams(),
    });
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' })).status).toBe(201);
    const users = [`ada-phone-${rand()}`, `ada-web-${rand()}`];
    const creds = await client.put(`/v1/subscribers/${subscriberId}/credentials`, {
      providerId: 'pusher-beams',
      integrationIdentifier: integration.body.data.identifier,
      credentials: { deviceTokens: users },
    });
    expect(creds.status, JSON.stringify(creds.body)).toBe(200);
    fake.reply = (r) => ({ status: 200, body: { publishId: `pub-${(r.json as { users: string[] }).users[0]}` } });
    const workflowId = await createWorkflow(client, [
      { name: 'Push', stepId: 'push', type: 'push', controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'Bob replied' } },
    ]);
    expect((await client.post('/v1/events/trigger', { name: workflowId, to: subscriberId })).status).toBe(201);

    const [message] = await vi.waitFor(async () => {
      const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=push&limit=10`);
      expect(res.body.data.map((m: any) => [m.providerId, m.status])).toEqual([['pusher-beams', 'sent']]);
      return res.body.data as any[];
    }, WAIT);
    const published = fake.requests.filter((r) => r.path === PUBLISH_PATH);
    expect(published.map((r) => r.json.users[0]).sort()).toEqual([...users].sort());
    for (const r of published) {
      expect(r.headers.authorization).toBe('Bearer beams-secret');
      expect(r.json.fcm.notification).toEqual({ title: 'Hi Ada', body: 'Bob replied' });
    }
    expect(message).toMatchObject({ deviceTokens: users, content: 'Bob replied' });
  });
});
