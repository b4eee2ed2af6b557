import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient } from '../support/api.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/provider-servers.ts';

// An email step's own sender (`from: {email, name}`, the reference's email control), rendered
// with the trigger's variables, goes out before the integration's `from` and `senderName`,
// through the API, the queues and the pipeline to the mail the SMTP server received.

let api: LocalApi;
let client: ApiClient;
let smtp: FakeSmtp;

beforeAll(async () => {
  [api, smtp] = await Promise.all([startTestApi(), startFakeSmtp()]);
  client = (await createTestOrg(api.url)).dev.client;
  const res = await client.post('/v1/integrations', {
    providerId: 'nodemailer',
    channel: 'email',
    active: true,
    credentials: { host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret', from: 'news@acme.test', senderName: 'Acme News' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await client.post(`/v1/integrations/${res.body.data._id}/set-primary`, {})).status).toBeLessThan(300);
});
afterAll(async () => {
  await Promise.all([api?.close(), smtp?.close()]);
});

async function senderOf(from: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}): Promise<{ address?: string; name?: string }> {
  const wf = await createWorkflow(client, [
    { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>', ...(from && { from }) } },
  ]);
  const subscriberId = `sub-${rand()}`;
  const txid = await triggerWith(client, { name: wf, to: { subscriberId, email: `${subscriberId}@example.test` }, payload: { team: 'billing' }, ...extra });
  expect((await settledOne(client, txid)).jobs[0].status).toBe('completed');
  const received = smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));
  return received!.mail.from!.value[0]!;
}

describe("an email step's sender", () => {
  it('is the step from, rendered with the trigger variables, before the integration sender', async () => {
    expect(await senderOf({ email: '{{payload.team}}@acme.test', name: '{{payload.team | capitalize}} desk' })).toEqual({ address: 'billing@acme.test', name: 'Billing desk' });
  });

  it('takes what the step leaves out from the integration', async () => {
    expect(await senderOf({ name: 'Support' })).toEqual({ address: 'news@acme.test', name: 'Support' });
    expect(await senderOf({ email: 'help@acme.test' })).toEqual({ address: 'help@acme.test', name: 'Acme News' });
    expect(await senderOf(undefined)).toEqual({ address: 'news@acme.test', name: 'Acme News' });
  });

  it("gives way to the trigger's provider overrides", async () => {
    const overrides = { email: { from: 'override@acme.test', senderName: 'Override' } };
    expect(await senderOf({ email: 'step@acme.test', name: 'Step' }, { overrides })).toEqual({ address: 'override@acme.test', name: 'Override' });
  });

  it('is a control of the step: kept, described in its schema, and checked', async () => {
    const wf = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>', from: { email: 'a@acme.test', name: 'A' } } },
    ]);
    const [mail] = (await client.get(`/v2/workflows/${wf}`)).body.steps;
    expect(mail.controls.values.from).toEqual({ email: 'a@acme.test', name: 'A' });
    expect(mail.controls.dataSchema.properties.from.properties).toEqual({ email: { type: 'string' }, name: { type: 'string' } });
    const bad = await client.post('/v2/workflows', {
      name: `wf-${rand()}`,
      workflowId: `wf-${rand()}`,
      steps: [{ name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>', from: { email: 42 } } }],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['steps.0.controlValues.from.email']);
  });
});
