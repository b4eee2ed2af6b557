import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';

// Failover (ours, opt-in per environment): an email or sms send whose integration fails
// transiently after its retries goes to the channel's next integration by priority. End to end
// through the API and the pipeline, against one fake vendor API whose answer depends on the
// path prefix each integration's baseUrl gives it, so every request shows which integration made it.

const fake = fakeApiForFile();
let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** What each integration's API answers, by its path prefix; unnamed ones accept. */
let down: Record<string, { status: number; body: unknown }> = {};
beforeEach(() => {
  down = {};
  fake.reply = (r) => {
    const prefix = r.path.split('/')[1]!;
    return down[prefix] ?? { status: 201, body: { sid: `SM-${prefix}`, id: `EM-${prefix}` } };
  };
});
const unavailable = { status: 503, body: { message: 'Service unavailable' } };
const prefixesCalled = (to: string) =>
  fake.requests.filter((r) => r.form.get('To') === to || r.json?.to?.includes?.(to)).map((r) => r.path.split('/')[1]);

async function post(client: ApiClient, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data;
}

/** A new environment whose channel has only these integrations, the first primary, the rest after it in this order. */
async function environmentWith(channel: 'sms' | 'email', prefixes: string[], failover: boolean): Promise<{ env: TestEnv; ids: string[] }> {
  const env = (await createTestOrg(api.url)).dev;
  const demo = ((await env.client.get('/v1/integrations')).body as any[]).find((i) => i.channel === channel && i._environmentId === env.id);
  const ids: string[] = [];
  // Each new integration set primary in turn, last to first, so the order is the list's.
  for (const prefix of [...prefixes].reverse()) {
    const credentials =
      channel === 'sms'
        ? { accountSid: 'AC9', token: 'tok', from: '+15550199', baseUrl: `${fake.url}/${prefix}` }
        : { apiKey: 're_key', from: 'news@acme.test', senderName: 'Acme', baseUrl: `${fake.url}/${prefix}` };
    const created = await post(env.client, '/v1/integrations', {
      providerId: channel === 'sms' ? 'twilio' : 'resend',
      channel,
      identifier: `${prefix}-${rand()}`,
      credentials,
      active: true,
    });
    await post(env.client, `/v1/integrations/${created._id}/set-primary`, {});
    ids.unshift(created._id);
  }
  expect((await env.client.put(`/v1/integrations/${demo._id}`, { active: false })).status).toBe(200);
  const settings = await env.client.patch('/v1/organizations/settings', { channelFailover: failover });
  expect(settings.status).toBe(200);
  expect(settings.body.data.channelFailover).toBe(failover);
  return { env, ids };
}

async function sendSms(env: TestEnv, extra: Record<string, unknown> = {}): Promise<{ item: any; phone: string; messages: any[] }> {
  const wf = await createWorkflow(env.client, [
    { name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: 'Code {{payload.code}}' } },
  ]);
  const subscriberId = `sub-${rand()}`;
  const phone = `+1555${Math.floor(1e6 + Math.random() * 9e6)}`;
  const txid = await triggerWith(env.client, { name: wf, to: { subscriberId, phone }, payload: { code: '42' }, ...extra });
  const item = await settledOne(env.client, txid);
  const messages = (await env.client.get(`/v1/messages?subscriberId=${subscriberId}&channel=sms&limit=10`)).body.data;
  return { item, phone, messages };
}

const texts = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

describe('failover on', () => {
  it('moves to the secondary once the primary answers 503 on every retry; the details show both', async () => {
    const { env, ids } = await environmentWith('sms', ['first', 'second'], true);
    down.first = unavailable;
    const { item, phone, messages } = await sendSms(env);
    const [job] = item.jobs;
    expect(job.status).toBe('completed');
    expect(prefixesCalled(phone)).toEqual(['first', 'first', 'first', 'second']);
    expect(texts(job)).toEqual([
      'Step queued',
      'Twilio provider was selected',
      'Message created',
      'Unexpected provider error',
      expect.stringMatching(/^Failing over to Twilio \(second-/),
      'Message sent',
    ]);
    const failed = job.executionDetails.find((d: any) => d.detail === 'Unexpected provider error');
    expect(failed.status).toBe('Failed');
    expect(JSON.parse(failed.raw)).toMatchObject({ integration: { _id: ids[0] }, answer: { status: 503, attempts: 3 } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ status: 'sent', identifier: 'SM-second' });
  });

  it('tries the third when the first two fail transiently (a 503, then a 429)', async () => {
    const { env } = await environmentWith('sms', ['one', 'two', 'three'], true);
    down.one = unavailable;
    down.two = { status: 429, body: { message: 'Too many requests' } };
    const { item, phone, messages } = await sendSms(env);
    expect(item.jobs[0].status).toBe('completed');
    expect(prefixesCalled(phone)).toEqual(['one', 'one', 'one', 'two', 'two', 'two', 'three']);
    expect(texts(item.jobs[0]).filter((t) => t.startsWith('Failing over to'))).toEqual([
      expect.stringContaining('(two-'),
      expect.stringContaining('(three-'),
    ]);
    expect(messages[0]).toMatchObject({ status: 'sent', identifier: 'SM-three' });
  });

  it('fails the step with the last reason when every integration fails', async () => {
    const { env } = await environmentWith('sms', ['a', 'b'], true);
    down.a = unavailable;
    down.b = { status: 502, body: { message: 'Bad gateway at b' } };
    const { item, phone, messages } = await sendSms(env);
    const [job] = item.jobs;
    expect(job.status).toBe('failed');
    expect(prefixesCalled(phone)).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(texts(job).slice(-2)).toEqual([expect.stringMatching(/^Failing over to Twilio \(b-/), 'Unexpected provider error']);
    expect(messages[0]).toMatchObject({ status: 'error', errorText: 'Twilio answered 502: Bad gateway at b' });
  });

  it('does not fail over on a refusal (4xx with the vendor reason)', async () => {
    const { env } = await environmentWith('sms', ['refuses', 'spare'], true);
    down.refuses = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } };
    const { item, phone, messages } = await sendSms(env);
    expect(item.jobs[0].status).toBe('failed');
    expect(prefixesCalled(phone)).toEqual(['refuses']);
    expect(texts(item.jobs[0]).some((t) => t.startsWith('Failing over'))).toBe(false);
    expect(messages[0]).toMatchObject({ status: 'error', errorText: "Twilio answered 400: The 'To' number is not a valid phone number." });
  });

  it('passes over an integration whose conditions the tenant does not match', async () => {
    const { env } = await environmentWith('sms', ['main', 'acme', 'any'], true);
    const acme = ((await env.client.get('/v1/integrations')).body as any[]).find((i) => i.identifier.startsWith('acme-'));
    const conditions = [
      {
        isNegated: false,
        type: 'GROUP',
        value: 'AND',
        children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }],
      },
    ];
    expect((await env.client.put(`/v1/integrations/${acme._id}`, { conditions })).status).toBe(200);
    down.main = unavailable;
    const { item, phone } = await sendSms(env);
    expect(item.jobs[0].status).toBe('completed');
    expect(prefixesCalled(phone)).toEqual(['main', 'main', 'main', 'any']);
  });

  it('fails an email step over to the next email integration', async () => {
    const { env } = await environmentWith('email', ['mail1', 'mail2'], true);
    down.mail1 = unavailable;
    const wf = await createWorkflow(env.client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: 'Hello' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@acme.test`;
    const item = await settledOne(env.client, await triggerWith(env.client, { name: wf, to: { subscriberId, email }, payload: {} }));
    expect(item.jobs[0].status).toBe('completed');
    expect(fake.requests.filter((r) => JSON.stringify(r.json ?? {}).includes(email)).map((r) => r.path)).toEqual([
      '/mail1/emails',
      '/mail1/emails',
      '/mail1/emails',
      '/mail2/emails',
    ]);
    const [message] = (await env.client.get(`/v1/messages?subscriberId=${subscriberId}&channel=email&limit=10`)).body.data;
    expect(message).toMatchObject({ status: 'sent', identifier: 'EM-mail2' });
  });
});

describe('failover off (the default)', () => {
  it('fails the step with the primary reason and tries nothing else', async () => {
    const { env } = await environmentWith('sms', ['only', 'unused'], false);
    down.only = unavailable;
    const { item, phone, messages } = await sendSms(env);
    expect(item.jobs[0].status).toBe('failed');
    expect(prefixesCalled(phone)).toEqual(['only', 'only', 'only']);
    expect(texts(item.jobs[0]).some((t) => t.startsWith('Failing over'))).toBe(false);
    expect(messages[0]).toMatchObject({ status: 'error', errorText: 'Twilio answered 503: Service unavailable' });
  });

  it('is set per environment: turning it on in one leaves the other off', async () => {
    const org = await createTestOrg(api.url);
    expect((await org.dev.client.get('/v1/organizations/settings')).body.data.channelFailover).toBe(false);
    expect((await org.dev.client.patch('/v1/organizations/settings', { channelFailover: true })).body.data.channelFailover).toBe(true);
    expect((await org.dev.client.get('/v1/organizations/settings')).body.data.channelFailover).toBe(true);
    expect((await org.prod.client.get('/v1/organizations/settings')).body.data.channelFailover).toBe(false);
    expect((await org.dev.client.patch('/v1/organizations/settings', { channelFailover: 'yes' })).status).toBe(422);
    expect((await org.dev.client.patch('/v1/organizations/settings', { channelFailover: false })).body.data.channelFailover).toBe(false);
  });
});
