import { afterAll, beforeAll, expect } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { EnvScope } from '#lib/scope.ts';
import { createTestOrg, startTestApi, type ApiClient } from './api.ts';
import { startFakeSmtp, type FakeSmtp } from './provider-servers.ts';

// Email integrations on the fake SMTP server (provider-servers.ts), made through the API.

/** An active SMTP integration sending from `from` (plus the other fields given, e.g. conditions). */
export async function smtpIntegration(client: ApiClient, smtp: FakeSmtp, from: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/v1/integrations', {
    providerId: 'nodemailer',
    channel: 'email',
    active: true,
    credentials: { host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret', from, senderName: 'Acme News' },
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The environment's primary email integration: SMTP, sending from `from` as "Acme News". */
export async function primarySmtpIntegration(client: ApiClient, smtp: FakeSmtp, from = 'news@acme.test'): Promise<any> {
  const integration = await smtpIntegration(client, smtp, from);
  expect((await client.post(`/v1/integrations/${integration._id}/set-primary`, {})).status).toBeLessThan(300);
  return integration;
}

export interface MailEnvironment {
  client: ApiClient;
  scope: EnvScope;
  smtp: FakeSmtp;
}

/**
 * For a test file: the API, a fake SMTP server and a new organization whose development
 * environment sends email through it (primarySmtpIntegration), started before its tests.
 */
export function mailEnvironment(): MailEnvironment {
  const env = {} as MailEnvironment;
  let api: LocalApi | undefined;
  beforeAll(async () => {
    [api, env.smtp] = await Promise.all([startTestApi(), startFakeSmtp()]);
    ({ client: env.client, scope: env.scope } = (await createTestOrg(api.url)).dev);
    await primarySmtpIntegration(env.client, env.smtp);
  });
  afterAll(async () => {
    await Promise.all([api?.close(), env.smtp?.close()]);
  });
  return env;
}
