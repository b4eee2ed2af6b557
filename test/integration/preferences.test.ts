import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { EnvScope } from '#lib/scope.ts';
import { apiClient, newOrganization, startTestApi, type ApiClient } from '../support/api.ts';
import { seedWorkflow } from '../support/workflow-builder.ts';

// GET and PATCH /v2/subscribers/{subscriberId}/preferences, through the real handlers.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Env {
  client: ApiClient;
  scope: EnvScope;
  subscriberId: string;
}

/** A new organization's Development environment with one subscriber. */
async function newEnv(): Promise<Env> {
  const org = await newOrganization();
  const dev = org.environments[0]!;
  const client = apiClient(api.url, dev.apiKey);
  const subscriberId = `sub-${randomUUID()}`;
  const created = await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' });
  expect(created.status).toBe(201);
  return { client, scope: { organizationId: org.organization._id, environmentId: dev.environment._id }, subscriberId };
}

const prefsPath = (env: Env, query = '') => `/v2/subscribers/${env.subscriberId}/preferences${query}`;

const critical = { all: { enabled: true, readOnly: true }, channels: {} };

describe('GET /v2/subscribers/{subscriberId}/preferences', () => {
  it("lists each active workflow with only its active steps' channels, all on by default", async () => {
    const env = await newEnv();
    const wf = await seedWorkflow(env.scope, {
      name: 'Welcome',
      steps: [{ type: 'email' }, { type: 'delay' }, { type: 'in_app' }, { type: 'sms', active: false }],
    });
    await seedWorkflow(env.scope, { active: false, steps: [{ type: 'push' }] });

    const res = await env.client.get(prefsPath(env));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      global: { enabled: true, channels: { email: true, in_app: true } },
      workflows: [
        {
          enabled: true,
          channels: { email: true, in_app: true },
          overrides: [
            { channel: 'email', source: 'template' },
            { channel: 'in_app', source: 'template' },
          ],
          workflow: { slug: wf.slug, identifier: wf.workflowId, name: 'Welcome', updatedAt: wf.updatedAt },
        },
      ],
    });
  });

  it("applies the author's settings, then the subscriber's global and per-workflow choices", async () => {
    const env = await newEnv();
    const wf = await seedWorkflow(env.scope, {
      steps: [{ type: 'email' }, { type: 'sms' }, { type: 'chat' }],
      userPreferences: { all: { enabled: true, readOnly: false }, channels: { chat: { enabled: false } } },
    });
    expect((await env.client.patch(prefsPath(env), { channels: { email: false, sms: false } })).status).toBe(200);
    expect((await env.client.patch(prefsPath(env), { workflowId: wf.workflowId, channels: { sms: true } })).status).toBe(200);

    const res = await env.client.get(prefsPath(env));
    expect(res.body.global.channels).toEqual({ email: false, sms: false, chat: true });
    expect(res.body.workflows[0].channels).toEqual({ email: false, sms: true, chat: false });
    expect(res.body.workflows[0].overrides).toEqual([
      { channel: 'email', source: 'subscriber' },
      { channel: 'sms', source: 'subscriber' },
      { channel: 'chat', source: 'template' },
    ]);
  });

  it('filters by criticality (default nonCritical), and critical workflows ignore subscriber choices', async () => {
    const env = await newEnv();
    const normal = await seedWorkflow(env.scope, { name: 'Normal', steps: [{ type: 'email' }] });
    const vital = await seedWorkflow(env.scope, { name: 'Vital', steps: [{ type: 'sms' }], userPreferences: critical });
    await env.client.patch(prefsPath(env), { channels: { email: false, sms: false } });

    const names = async (query: string) =>
      (await env.client.get(prefsPath(env, query))).body.workflows.map((w: { workflow: { name: string } }) => w.workflow.name);
    expect(await names('')).toEqual(['Normal']);
    expect(await names('?criticality=nonCritical')).toEqual(['Normal']);
    expect(await names('?criticality=critical')).toEqual(['Vital']);
    expect((await names('?criticality=all')).sort()).toEqual(['Normal', 'Vital']);

    const all = (await env.client.get(prefsPath(env, '?criticality=critical'))).body;
    expect(all.workflows[0].channels).toEqual({ sms: true });
    expect(all.global.channels).toEqual({ sms: false });
    expect(normal.workflowId).not.toBe(vital.workflowId);
  });

  it('answers 422 for an unknown criticality and 404 for an unknown subscriber', async () => {
    const env = await newEnv();
    expect((await env.client.get(prefsPath(env, '?criticality=some'))).status).toBe(422);
    const missing = await env.client.get('/v2/subscribers/nobody-here/preferences');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Subscriber with id: nobody-here not found');
  });

  it("never shows another environment's workflows or another organization's subscriber", async () => {
    const env = await newEnv();
    const other = await newEnv();
    await seedWorkflow(other.scope, { steps: [{ type: 'email' }] });
    expect((await env.client.get(prefsPath(env))).body.workflows).toEqual([]);
    expect((await env.client.get(prefsPath(other))).status).toBe(404);
  });
});

describe('PATCH /v2/subscribers/{subscriberId}/preferences', () => {
  it('changes only the channels sent and answers with the preferences', async () => {
    const env = await newEnv();
    await seedWorkflow(env.scope, { steps: [{ type: 'email' }, { type: 'sms' }] });
    await env.client.patch(prefsPath(env), { channels: { email: false } });
    const res = await env.client.patch(prefsPath(env), { channels: { sms: false } });
    expect(res.status).toBe(200);
    expect(res.body.global.channels).toEqual({ email: false, sms: false });
  });

  it('keeps concurrent changes of different channels', async () => {
    const env = await newEnv();
    await seedWorkflow(env.scope, { steps: [{ type: 'email' }, { type: 'sms' }, { type: 'push' }] });
    await Promise.all([
      env.client.patch(prefsPath(env), { channels: { email: false } }),
      env.client.patch(prefsPath(env), { channels: { sms: false } }),
      env.client.patch(prefsPath(env), { channels: { push: false } }),
    ]);
    expect((await env.client.get(prefsPath(env))).body.global.channels).toEqual({ email: false, sms: false, push: false });
  });

  it('stores the weekly schedule with 12-hour times', async () => {
    const env = await newEnv();
    const schedule = {
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:30 PM' }] }, sunday: { isEnabled: false } },
    };
    const res = await env.client.patch(prefsPath(env), { schedule });
    expect(res.status).toBe(200);
    expect(res.body.global.schedule).toEqual(schedule);
    expect((await env.client.get(prefsPath(env))).body.global.schedule).toEqual(schedule);
  });

  it('refuses bad times, an end before its start, and a body with nothing to change (422)', async () => {
    const env = await newEnv();
    const bad = await env.client.patch(prefsPath(env), {
      schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9:00', end: '13:00 PM' }] } } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'schedule.weeklySchedule.monday.hours.0.end',
      'schedule.weeklySchedule.monday.hours.0.start',
    ]);
    const backwards = await env.client.patch(prefsPath(env), {
      schedule: { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '05:00 PM', end: '09:00 AM' }] } } },
    });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors['schedule.weeklySchedule.friday.hours.0.end'].messages).toEqual(['start must be before end']);
    expect((await env.client.patch(prefsPath(env), {})).status).toBe(422);
    expect((await env.client.patch(prefsPath(env), { channels: { email: 'no' } })).status).toBe(422);
  });

  it('answers 404 for an unknown workflow or subscriber, and 400 for a critical workflow', async () => {
    const env = await newEnv();
    const vital = await seedWorkflow(env.scope, { steps: [{ type: 'sms' }], userPreferences: critical });
    expect((await env.client.patch(prefsPath(env), { workflowId: 'nope', channels: { sms: false } })).status).toBe(404);
    expect((await env.client.patch('/v2/subscribers/nobody/preferences', { channels: { sms: false } })).status).toBe(404);
    const res = await env.client.patch(prefsPath(env), { workflowId: vital.workflowId, channels: { sms: false } });
    expect(res.status).toBe(400);
  });

  it('finds the workflow by database id as well as by workflowId', async () => {
    const env = await newEnv();
    const wf = await seedWorkflow(env.scope, { steps: [{ type: 'email' }] });
    await env.client.patch(prefsPath(env), { workflowId: wf._id, channels: { email: false } });
    expect((await env.client.get(prefsPath(env))).body.workflows[0].channels).toEqual({ email: false });
  });
});
