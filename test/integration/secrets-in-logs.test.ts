import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Secrets (issue 9, item 5): nothing the service logs — at DEBUG, its most verbose level —
// contains an integration secret, an API key or an Authorization header, through a realistic
// sequence of calls including validation failures, a fault (500) and idempotent replays; and what
// is stored holds secrets only as ciphertext and API keys only as their SHA-256.
//
// The logger reads POWERTOOLS_LOG_LEVEL when lib/logger.ts is first evaluated, and its middleware
// resets the level to that initial one on every warm invocation, so `logger.setLogLevel` at run
// time would not stick: the level is set here, hoisted above the imports, whatever the run's
// level is (DEBUG unless chosen, test/support/log-capture-main.ts). The whole run's capture is
// checked too, at the end (test/support/global-setup.ts); this file checks, with values it
// chose, the secrets that are never stored (refused requests) and so only it can know.
const previousLogLevel = vi.hoisted(() => {
  const previous = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  return previous;
});

import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { apiClient, newOrganization, startTestApi, type ApiClient, type ApiResponse } from '../support/api.ts';
import { scanTable } from '../support/table-scan.ts';

let api: LocalApi;
let org: { id: string; dev: { client: ApiClient; apiKey: string }; prod: { client: ApiClient; apiKey: string } };
const captured: string[] = [];
const restore: (() => void)[] = [];

/**
 * Everything written to stdout/stderr or through the console, from now on, kept. Stream writes go
 * on to the run's own log capture (test/support/log-capture.ts), which keeps them off the terminal.
 */
function captureOutput() {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const spy = vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return write(chunk, ...rest);
    });
    restore.push(() => spy.mockRestore());
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      captured.push(
        args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message}\n${a.stack}` : JSON.stringify(a))).join(' '),
      );
    });
    restore.push(() => spy.mockRestore());
  }
}

beforeAll(async () => {
  captureOutput();
  api = await startTestApi();
  const provisioned = await newOrganization('Secrets');
  const env = (name: string) => {
    const found = provisioned.environments.find((e) => e.environment.name === name)!;
    return { client: apiClient(api.url, found.apiKey), apiKey: found.apiKey };
  };
  org = { id: provisioned.organization._id, dev: env('Development'), prod: env('Production') };
});
afterAll(async () => {
  for (const undo of restore.splice(0)) undo();
  // Leave the worker as found, should it run another file.
  if (previousLogLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
  else process.env.POWERTOOLS_LOG_LEVEL = previousLogLevel;
  await api.close();
});

const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;

/** Every secret value this file sends; none may be logged or stored in plaintext. */
const SECRETS = {
  sendgridApiKey: secret('sg-apikey'),
  sendgridApiKey2: secret('sg-apikey-2'),
  smtpPassword: secret('smtp-password'),
  twilioToken: secret('twilio-token'),
  mailjetSecretKey: secret('mailjet-secret'),
  mailjetApiKey: secret('mailjet-apikey'),
  messagebirdAccessKey: secret('mb-accesskey'),
  signingKey: secret('webhook-signing'),
  signingKey2: secret('webhook-signing-2'),
  invalidApiKey: secret('invalid-apikey'),
  faultApiKey: secret('fault-apikey'),
  idempotentApiKey: secret('idem-apikey'),
} as const;

const MAIL = { from: 'ops@example.com', senderName: 'Ops' };

function expectStatus(res: ApiResponse, status: number, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
}

async function create(client: ApiClient, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await client.post('/v1/integrations', body, headers);
  expectStatus(res, 201, `create ${String(body.providerId)}`);
  return res.body.data as { _id: string; credentials: Record<string, unknown>; configurations?: Record<string, unknown> };
}

const idempotencyKey = `secret-run-${randomBytes(6).toString('hex')}`;

const created: { sendgrid?: string; nodemailer?: string; twilio?: string; mailjet?: string; messagebird?: string; idempotent?: string } =
  {};

describe('secrets', () => {
  it('logs none of the secrets, API keys or Authorization headers of a realistic sequence', async () => {
    const { dev, prod } = org;

    // Create integrations with every kind of secret credential, and a signing key.
    const sendgrid = await create(dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      active: true,
      credentials: { apiKey: SECRETS.sendgridApiKey, ...MAIL },
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: SECRETS.signingKey },
    });
    expect(sendgrid.credentials.apiKey).toBe(SECRETS.sendgridApiKey); // decrypted on the way out
    created.sendgrid = sendgrid._id;
    created.nodemailer = (
      await create(dev.client, {
        providerId: 'nodemailer',
        channel: 'email',
        credentials: { host: 'smtp.example.com', port: '587', user: 'ops', password: SECRETS.smtpPassword, ...MAIL },
      })
    )._id;
    created.twilio = (
      await create(prod.client, {
        providerId: 'twilio',
        channel: 'sms',
        active: true,
        credentials: { accountSid: 'AC123', token: SECRETS.twilioToken, from: '+15550100' },
      })
    )._id;
    created.mailjet = (
      await create(dev.client, {
        providerId: 'mailjet',
        channel: 'email',
        credentials: { apiKey: SECRETS.mailjetApiKey, secretKey: SECRETS.mailjetSecretKey, ...MAIL },
      })
    )._id;
    created.messagebird = (
      await create(dev.client, {
        providerId: 'messagebird',
        channel: 'sms',
        credentials: { accessKey: SECRETS.messagebirdAccessKey, from: 'Ops' },
      })
    )._id;

    // Update them: new secrets, from the other environment of the organization too.
    expectStatus(
      await dev.client.put(`/v1/integrations/${created.sendgrid}`, {
        credentials: { apiKey: SECRETS.sendgridApiKey2, ...MAIL },
        configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: SECRETS.signingKey2 },
      }),
      200,
      'update sendgrid',
    );
    expectStatus(
      await prod.client.put(`/v1/integrations/${created.mailjet}`, { name: 'Mailjet (renamed)', active: true }),
      200,
      'activate mailjet',
    );

    // List them, from both environments.
    const listed = await dev.client.get('/v1/integrations');
    expectStatus(listed, 200, 'list');
    expect(JSON.stringify(listed.body)).toContain(SECRETS.twilioToken);
    expectStatus(await prod.client.get('/v1/integrations'), 200, 'list from prod');

    // Fail validation while sending secrets: missing required fields, wrong types, an unknown
    // provider, an over-long body.
    const refused = [
      await dev.client.post('/v1/integrations', {
        providerId: 'mailjet',
        channel: 'email',
        active: true,
        credentials: { apiKey: SECRETS.invalidApiKey },
      }),
      await dev.client.post('/v1/integrations', {
        providerId: 'sendgrid',
        channel: 'email',
        credentials: { apiKey: SECRETS.invalidApiKey, port: { nested: true } },
      }),
      await dev.client.post('/v1/integrations', {
        providerId: 'not-a-provider',
        channel: 'email',
        credentials: { password: SECRETS.invalidApiKey },
      }),
      await dev.client.put(`/v1/integrations/${created.nodemailer}`, { active: true, credentials: { password: SECRETS.invalidApiKey } }),
      await dev.client.post('/v1/integrations', {
        providerId: 'sendgrid',
        channel: 'email',
        credentials: { apiKey: SECRETS.invalidApiKey, pad: 'x'.repeat(600 * 1024) },
      }),
      await dev.client.request('POST', '/v1/integrations', {
        rawBody: `{"credentials":{"apiKey":"${SECRETS.invalidApiKey}"`,
        headers: { 'content-type': 'application/json' },
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([422, 422, 422, 422, 413, 400]);

    // A connection check that fails (nothing listens on port 1): the provider's error, a 400.
    const checked = await dev.client.post('/v1/integrations', {
      providerId: 'nodemailer',
      channel: 'email',
      check: true,
      credentials: { host: '127.0.0.1', port: '1', user: 'ops', password: SECRETS.smtpPassword, ...MAIL },
    });
    expectStatus(checked, 400, 'failed connection check');

    // A fault: the store fails once while saving an integration with a secret (500, errorId logged).
    const send = vi.spyOn(db(), 'send').mockImplementationOnce(() => {
      throw Object.assign(new Error('Simulated DynamoDB failure'), { name: 'InternalServerError' });
    });
    const fault = await dev.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: SECRETS.faultApiKey, ...MAIL },
    });
    send.mockRestore();
    expectStatus(fault, 500, 'fault');
    expect(fault.body.errorId).toEqual(expect.any(String));
    expect(captured.join('')).toContain(fault.body.errorId);

    // Idempotency keys: a create replayed, an update, a refused request replayed.
    const idem = { 'idempotency-key': idempotencyKey };
    const idemBody = { providerId: 'postmark', channel: 'email', credentials: { apiKey: SECRETS.idempotentApiKey, ...MAIL } };
    const first = await dev.client.post('/v1/integrations', idemBody, idem);
    expectStatus(first, 201, 'idempotent create');
    created.idempotent = first.body.data._id;
    const replay = await dev.client.post('/v1/integrations', idemBody, idem);
    expectStatus(replay, 201, 'idempotent replay');
    expect(replay.headers.get('idempotency-replay')).toBe('true');
    expect(replay.body.data.credentials.apiKey).toBe(SECRETS.idempotentApiKey);
    const idemRefused = { 'idempotency-key': `secret-refused-${randomBytes(6).toString('hex')}` };
    const badBody = { providerId: 'mailjet', channel: 'email', active: true, credentials: { apiKey: SECRETS.invalidApiKey } };
    expectStatus(await dev.client.post('/v1/integrations', badBody, idemRefused), 422, 'idempotent refusal');
    expectStatus(await dev.client.post('/v1/integrations', badBody, idemRefused), 422, 'idempotent refusal replayed');
    expectStatus(await dev.client.post(`/v1/integrations/${created.sendgrid}/set-primary`, undefined, idem), 422, 'same key, other body');

    // Unauthenticated and wrong-scheme calls carry keys too.
    expectStatus(await dev.client.get('/v1/integrations', { authorization: `Bearer ${SECRETS.invalidApiKey}` }), 401, 'wrong scheme');
    expectStatus(await dev.client.get('/v1/integrations', { authorization: `ApiKey ${SECRETS.invalidApiKey}` }), 401, 'unknown key');

    // Delete one.
    expectStatus(await dev.client.delete(`/v1/integrations/${created.messagebird}`), 200, 'delete');

    // The capture saw the service's logs: one line per request, at least.
    const text = captured.join('');
    const requestLines = text.split('\n').filter((line) => line.includes('"message":"request"'));
    expect(requestLines.length, 'request log lines captured').toBeGreaterThanOrEqual(20);
    expect(logger.getLevelName()).toBe('DEBUG');

    const apiKeys = [dev.apiKey, prod.apiKey];
    for (const value of [...Object.values(SECRETS), ...apiKeys]) {
      expect(text.includes(value), `a logged line contains ${value}`).toBe(false);
    }
    expect(text).not.toMatch(/authorization/i);
    expect(text).not.toMatch(/ApiKey [0-9a-f]{16,}/);
  }, 60_000);

  it('stores integration secrets as ciphertext', async () => {
    const integration = async (id: string | undefined) => {
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.integration(org.id, id!) }));
      expect(Item, `integration ${id}`).toBeDefined();
      return Item!;
    };
    const expectSealed = (value: unknown) => expect(value).toMatch(/^enc:v1:[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);

    const sendgrid = await integration(created.sendgrid);
    expectSealed(sendgrid.credentials.apiKey);
    expectSealed(sendgrid.configurations.inboundWebhookSigningKey);
    expect(sendgrid.credentials.from).toBe(MAIL.from); // only the secrets
    expectSealed((await integration(created.nodemailer)).credentials.password);
    expectSealed((await integration(created.twilio)).credentials.token);
    const mailjet = await integration(created.mailjet);
    expectSealed(mailjet.credentials.apiKey);
    expectSealed(mailjet.credentials.secretKey);
    expectSealed((await integration(created.messagebird)).credentials.accessKey); // soft-deleted, still sealed
    expectSealed((await integration(created.idempotent)).credentials.apiKey);
  });

  it('stores the responses of idempotent requests encrypted (they carry decrypted credentials)', async () => {
    // Powertools' record key: the prefix and the MD5 (base64) of the JMESPath selection
    // [organizationId, idempotency-key] (lib/http/idempotency.ts); the record is kept 24 hours.
    const hash = createHash('md5')
      .update(JSON.stringify([org.id, idempotencyKey]))
      .digest('base64');
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `${keys.idempotency.prefix}#${hash}`, sk: keys.idempotency.recordSortKey } }),
    );
    expect(Item).toMatchObject({ status: 'COMPLETED' });
    const stored = Item!.data as { response: { statusCode: number; body: string }; dataKey: string };
    expect(stored.response.statusCode).toBe(201);
    expect(stored.response.body).toMatch(/^enc:v1:/);
    expect(stored.dataKey).toEqual(expect.any(String));
    expect(JSON.stringify(Item)).not.toContain(SECRETS.idempotentApiKey);
  });

  it('stores API keys only as their SHA-256', async () => {
    for (const { apiKey } of [org.dev, org.prod]) {
      const hash = createHash('sha256').update(apiKey, 'utf8').digest('hex');
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash) }));
      expect(Item).toMatchObject({ pk: `APIKEY#${hash}`, organizationId: org.id });
      expect(JSON.stringify(Item)).not.toContain(apiKey);
    }
  });

  it('has no secret and no API key in plaintext in any stored item', async () => {
    const values = [...Object.values(SECRETS), org.dev.apiKey, org.prod.apiKey];
    let scanned = 0;
    for await (const item of scanTable()) {
      const text = JSON.stringify(item);
      for (const value of values) expect(text.includes(value), `${String(item.pk)} / ${String(item.sk)} holds ${value}`).toBe(false);
      scanned++;
    }
    expect(scanned).toBeGreaterThan(10);
  }, 60_000);
});
