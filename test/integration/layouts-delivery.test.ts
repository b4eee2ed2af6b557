import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createEnvironmentWithoutLayouts, createTestOrg, startTestApi, type ApiClient, type TestEnv, type TestOrg } from '../support/api.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/provider-servers.ts';

// Email steps sent in the layout they name, end to end: a trigger through the API, the queues and
// the consumers to an SMTP server, whose received mail is parsed as a mail client would. Which
// layout: the step's (omitted = the environment's default, null = none), a per-trigger override,
// the built-in one where the environment has no layout; an unknown one fails the step.

let api: LocalApi;
let smtp: FakeSmtp;
let org: TestOrg;
let dev: TestEnv;

beforeAll(async () => {
  [api, smtp] = await Promise.all([startTestApi(), startFakeSmtp()]);
  org = await createTestOrg(api.url);
  dev = org.dev;
  await mailThroughSmtp(dev.client);
});
afterAll(async () => {
  await Promise.all([api?.close(), smtp?.close()]);
});

async function mailThroughSmtp(client: ApiClient): Promise<void> {
  const res = await client.post('/v1/integrations', {
    providerId: 'nodemailer',
    channel: 'email',
    active: true,
    credentials: { host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret', from: 'news@acme.test', senderName: 'Acme' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await client.post(`/v1/integrations/${res.body.data._id}/set-primary`, {})).status).toBeLessThan(300);
}

const BRAND = '<html><body><header>Hello {{subscriber.firstName}}</header><main>{{ content }}</main><footer>{{context.tenant.id}}</footer></body></html>';
const OTHER = '<html><body><aside>Other layout</aside>{{content}}</body></html>';

async function layout(client: ApiClient, layoutId: string, body: string): Promise<void> {
  const res = await client.post('/v2/layouts', { layoutId, name: layoutId, controlValues: { email: { editorType: 'html', body } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const mailStep = (controls: Record<string, unknown> = {}) => ({
  name: 'Mail',
  stepId: 'mail',
  type: 'email',
  controlValues: { subject: 'Hi', body: '<p class="body">Order {{payload.id}}</p>', ...controls },
});

/** Triggers the workflow to a new subscriber; the settled job and the mail received, if any, parsed. */
async function send(client: ApiClient, workflowId: string, extra: Record<string, unknown> = {}) {
  const subscriberId = `sub-${rand()}`;
  const email = `${subscriberId}@example.test`;
  const txid = await triggerWith(client, { name: workflowId, to: { subscriberId, email, firstName: '<b>Ada</b>' }, payload: { id: 42 }, ...extra });
  const job = (await settledOne(client, txid)).jobs[0];
  const received = smtp.received.find((r) => r.envelope.to.includes(email));
  return { job, html: received && String(received.mail.html), $: received && load(String(received.mail.html)) };
}

const details = (job: any) => job.executionDetails.map((d: any) => [d.detail, d.status]);

describe('the layout an email is sent in', () => {
  it('is the environment’s default when the step names none, and follows edits of that default', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep()]);
    const first = await send(dev.client, workflowId);
    expect(first.job.status).toBe('completed');
    expect(details(first.job)).toContainEqual(['Layout selected', 'Success']);
    expect(JSON.parse(first.job.executionDetails.find((d: any) => d.detail === 'Layout selected').raw)).toEqual({ name: 'Default layout', layoutId: 'default-layout' });
    // The provisioned default is the layout emails were sent in before: the body centred, CSS inlined.
    expect(first.$!('.email-layout .email-content p.body').text()).toBe('Order 42');
    expect(first.$!('.email-content').attr('style')).toContain('max-width: 600px');

    const edited = await dev.client.put('/v2/layouts/default-layout', {
      name: 'Default layout',
      controlValues: { email: { editorType: 'html', body: '<html><body><div id="edited">{{content}}</div></body></html>' } },
    });
    expect(edited.status).toBe(200);
    const second = await send(dev.client, workflowId);
    expect(second.$!('#edited p.body').text()).toBe('Order 42');
    expect(second.$!('.email-content')).toHaveLength(0);
  });

  it('is the layout the step names, its Liquid rendered with subscriber and context values escaped', async () => {
    await layout(dev.client, 'brand', BRAND);
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'brand' })]);
    const { job, $ } = await send(dev.client, workflowId, { context: { tenant: 'acme' } });
    expect(job.status).toBe('completed');
    expect(JSON.parse(job.executionDetails.find((d: any) => d.detail === 'Layout selected').raw)).toEqual({ name: 'brand', layoutId: 'brand' });
    expect($!('header').text()).toBe('Hello <b>Ada</b>');
    expect($!('header b')).toHaveLength(0);
    expect($!('main p.body').text()).toBe('Order 42');
    expect($!('footer').text()).toBe('acme');
    expect($!('.email-content')).toHaveLength(0);
  });

  it('is none when the step says layoutId: null', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: null })]);
    const { job, html } = await send(dev.client, workflowId);
    expect(job.status).toBe('completed');
    expect(details(job).map(([d]: string[]) => d)).not.toContain('Layout selected');
    expect(html!.trim()).toBe('<p class="body">Order 42</p>');
  });

  it('is the trigger’s override: per step, then for the email channel, then layoutIdentifier', async () => {
    await layout(dev.client, 'other', OTHER);
    await layout(dev.client, 'brand-2', BRAND);
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'brand-2' })]);
    const byStep = await send(dev.client, workflowId, { overrides: { steps: { mail: { layoutId: 'other' } }, channels: { email: { layoutId: null } } } });
    expect(byStep.$!('aside').text()).toBe('Other layout');
    const byChannel = await send(dev.client, workflowId, { overrides: { channels: { email: { layoutId: null } }, layoutIdentifier: 'other' } });
    expect(byChannel.html!.trim()).toBe('<p class="body">Order 42</p>');
    const byIdentifier = await send(dev.client, workflowId, { overrides: { layoutIdentifier: 'other' } });
    expect(byIdentifier.$!('aside').text()).toBe('Other layout');
    // An empty override falls through to the step's layout.
    const empty = await send(dev.client, workflowId, { overrides: { steps: { mail: { layoutId: '' } } } });
    expect(empty.$!('header').text()).toBe('Hello <b>Ada</b>');
  });

  it('fails the step when the layout cannot be found, and sends nothing', async () => {
    const named = await createWorkflow(dev.client, [mailStep({ layoutId: 'ghost' })]);
    const stored = await dev.client.get(`/v2/workflows/${named}`);
    expect(stored.body.steps[0].issues.controls.layoutId).toHaveLength(1);
    const byStep = await send(dev.client, named);
    expect(byStep.job.status).toBe('failed');
    expect(details(byStep.job)).toContainEqual(['Layout not found', 'Failed']);
    expect(byStep.html).toBeUndefined();

    const byOverride = await send(dev.client, await createWorkflow(dev.client, [mailStep()]), { overrides: { layoutIdentifier: 'nowhere' } });
    expect(byOverride.job.status).toBe('failed');
    expect(JSON.parse(byOverride.job.executionDetails.find((d: any) => d.detail === 'Layout not found').raw)).toEqual({ layoutId: 'nowhere' });
    expect(byOverride.html).toBeUndefined();
  });

  it('is sanitized with the body in it, unless the step opts out', async () => {
    await layout(dev.client, 'risky', '<html><body><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a>{{content}}</body></html>');
    const safe = await send(dev.client, await createWorkflow(dev.client, [mailStep({ layoutId: 'risky' })]));
    expect(safe.$!('[onerror]')).toHaveLength(0);
    expect(safe.$!('a').attr('href')).toBeUndefined();
    expect(safe.$!('p.body').text()).toBe('Order 42');
    const raw = await send(dev.client, await createWorkflow(dev.client, [mailStep({ layoutId: 'risky', disableOutputSanitization: true })]));
    expect(raw.$!('img').attr('onerror')).toBe('alert(1)');
  });

  it('is the built-in layout in an environment made before layouts existed, which has none', async () => {
    const legacy = await createEnvironmentWithoutLayouts(api.url, org.id);
    await mailThroughSmtp(legacy.client);
    const { job, $ } = await send(legacy.client, await createWorkflow(legacy.client, [mailStep()]));
    expect(job.status).toBe('completed');
    expect(details(job).map(([d]: string[]) => d)).not.toContain('Layout selected');
    expect($!('.email-layout .email-content p.body').text()).toBe('Order 42');
  });

  it('is the synced layout in the environment a workflow was synced to', async () => {
    await layout(dev.client, 'synced', OTHER.replace('Other layout', 'Synced layout'));
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'synced' })]);
    expect((await dev.client.put(`/v2/workflows/${workflowId}/sync`, { targetEnvironmentId: org.prod.id })).status).toBe(200);
    await mailThroughSmtp(org.prod.client);
    expect((await org.prod.client.patch(`/v2/workflows/${workflowId}`, { active: true })).status).toBe(200);
    const { job, $ } = await send(org.prod.client, workflowId);
    expect(job.status).toBe('completed');
    expect($!('aside').text()).toBe('Synced layout');
  });
});
