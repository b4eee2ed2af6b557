import { randomUUID } from 'node:crypto';
import { Novu, SeverityLevelEnum, WorkflowCriticalityEnum } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { EnvScope } from '#lib/scope.ts';
import type { StoredWorkflow } from '#lib/workflows/model.ts';
import { apiClient, createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { createWorkflow, messagesOf, settled, trigger } from '../support/pipeline.ts';
import { sessionToken } from '../support/subscriber-session.ts';
import { seedWorkflow, type WorkflowSeed } from '../support/workflow-builder.ts';

// The inbox's preferences routes (/v1/inbox/preferences…) through the real handlers, called with
// a subscriber's session token as `@novu/js` calls them, answers in the {data} envelope.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Inbox {
  /** The environment's API-key client (the v2 routes). */
  admin: ApiClient;
  scope: EnvScope;
  env: TestEnv;
  subscriberId: string;
  /** The subscriber's session client. */
  client: ApiClient;
}

async function newSubscriber(env: TestEnv): Promise<Inbox> {
  const subscriberId = `sub-${randomUUID()}`;
  const created = await env.client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' });
  expect(created.status).toBe(201);
  const token = await sessionToken(env.scope, { subscriberId, _id: created.body._id });
  return { admin: env.client, scope: env.scope, env, subscriberId, client: apiClient(api.url, { bearer: token }) };
}

/** A subscriber of a new organization's Development environment. */
async function newInbox(): Promise<Inbox> {
  return newSubscriber((await createTestOrg(api.url)).dev);
}

const seed = (inbox: Inbox, workflow: WorkflowSeed) => seedWorkflow(inbox.scope, workflow);
const critical = { all: { enabled: true, readOnly: true }, channels: {} };

const list = async (inbox: Inbox, query = '') => {
  const res = await inbox.client.get(`/v1/inbox/preferences${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
};
const names = async (inbox: Inbox, query = '') => (await list(inbox, query)).slice(1).map((item) => item.workflow.name);
const itemOf = async (inbox: Inbox, workflow: StoredWorkflow) =>
  (await list(inbox, '?criticality=all')).find((i) => i.workflow?.id === workflow._id);
const v2Preferences = async (inbox: Inbox) => (await inbox.admin.get(`/v2/subscribers/${inbox.subscriberId}/preferences`)).body;

describe('GET /v1/inbox/preferences', () => {
  it("answers the global item, then one item per active workflow with only its active steps' channels", async () => {
    const inbox = await newInbox();
    const welcome = await seed(inbox, {
      name: 'Welcome',
      tags: ['onboarding'],
      severity: 'high',
      steps: [{ type: 'email' }, { type: 'delay' }, { type: 'in_app' }, { type: 'sms', active: false }],
    });
    await seed(inbox, { name: 'Off', active: false, steps: [{ type: 'push' }] });

    const res = await inbox.client.get('/v1/inbox/preferences');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { level: 'global', enabled: true, channels: { email: true, in_app: true }, schedule: { isEnabled: false } },
        {
          level: 'template',
          enabled: true,
          channels: { email: true, in_app: true },
          overrides: [
            { channel: 'email', source: 'template' },
            { channel: 'in_app', source: 'template' },
          ],
          workflow: {
            id: welcome._id,
            identifier: welcome.workflowId,
            name: 'Welcome',
            critical: false,
            tags: ['onboarding'],
            severity: 'high',
          },
        },
      ],
    });
  });

  it('filters by tags (any of them, repeated or not), by severity (one or several) and by both', async () => {
    const inbox = await newInbox();
    await seed(inbox, { name: 'A', tags: ['billing'], severity: 'high' });
    await seed(inbox, { name: 'B', tags: ['security', 'billing'], severity: 'low' });
    await seed(inbox, { name: 'C', tags: ['news, weekly'], severity: 'none' });
    await seed(inbox, { name: 'D', tags: [], severity: 'medium' });

    expect(await names(inbox)).toEqual(['A', 'B', 'C', 'D']);
    expect(await names(inbox, '?tags[]=billing')).toEqual(['A', 'B']);
    expect(await names(inbox, '?tags%5B%5D=security&tags%5B%5D=nope')).toEqual(['B']);
    expect(await names(inbox, '?tags=security')).toEqual(['B']);
    // A tag that holds a comma is one tag, not two.
    expect(await names(inbox, `?tags[]=${encodeURIComponent('news, weekly')}`)).toEqual(['C']);
    expect(await names(inbox, '?tags[]=news')).toEqual([]);
    expect(await names(inbox, '?severity=high')).toEqual(['A']);
    expect(await names(inbox, '?severity[]=high&severity[]=none')).toEqual(['A', 'C']);
    expect(await names(inbox, '?tags[]=billing&severity=low')).toEqual(['B']);
  });

  it('filters by criticality (nonCritical by default); critical workflows ignore the subscriber', async () => {
    const inbox = await newInbox();
    await seed(inbox, { name: 'Normal', steps: [{ type: 'email' }] });
    const vital = await seed(inbox, { name: 'Vital', steps: [{ type: 'sms' }], userPreferences: critical });
    expect((await inbox.client.patch('/v1/inbox/preferences', { sms: false, email: false })).status).toBe(200);

    expect(await names(inbox)).toEqual(['Normal']);
    expect(await names(inbox, '?criticality=nonCritical')).toEqual(['Normal']);
    expect(await names(inbox, '?criticality=critical')).toEqual(['Vital']);
    expect(await names(inbox, '?criticality=all')).toEqual(['Normal', 'Vital']);

    const [global, item] = await list(inbox, '?criticality=critical');
    expect(item.workflow).toMatchObject({ id: vital._id, critical: true });
    expect(item.channels).toEqual({ sms: true });
    expect(item.overrides).toEqual([{ channel: 'sms', source: 'template' }]);
    // The global item is the same whatever the filters: the channels a subscriber can change.
    expect(global.channels).toEqual({ email: false });
    expect((await list(inbox, '?tags[]=none-such'))[0]).toEqual(global);
  });

  it('refuses an unknown severity or criticality (422, with a message)', async () => {
    const inbox = await newInbox();
    for (const query of [
      '?severity=urgent',
      '?severity[]=high&severity[]=urgent',
      '?criticality=some',
      '?criticality=all&criticality=all',
      '?tags[]=',
    ]) {
      const res = await inbox.client.get(`/v1/inbox/preferences${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });
});

describe('global preferences', () => {
  it('GET /global answers the global item with its schedule', async () => {
    const inbox = await newInbox();
    await seed(inbox, { steps: [{ type: 'push' }, { type: 'chat' }] });
    const res = await inbox.client.get('/v1/inbox/preferences/global');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { level: 'global', enabled: true, channels: { push: true, chat: true }, schedule: { isEnabled: false } },
    });
  });

  it('PATCH changes only the channels sent, keeps concurrent changes, and applies to every workflow', async () => {
    const inbox = await newInbox();
    const wf = await seed(inbox, { steps: [{ type: 'email' }, { type: 'sms' }, { type: 'push' }] });
    const patches = await Promise.all([{ email: false }, { sms: false }].map((body) => inbox.client.patch('/v1/inbox/preferences', body)));
    expect(patches.map((p) => p.status)).toEqual([200, 200]);
    const res = await inbox.client.patch('/v1/inbox/preferences', { push: true });
    expect(res.body.data).toEqual({
      level: 'global',
      enabled: true,
      channels: { email: false, sms: false, push: true },
      schedule: { isEnabled: false },
    });
    const item = await itemOf(inbox, wf);
    expect(item.channels).toEqual({ email: false, sms: false, push: true });
    expect(item.overrides).toEqual([
      { channel: 'email', source: 'subscriber' },
      { channel: 'sms', source: 'subscriber' },
      { channel: 'push', source: 'subscriber' },
    ]);
  });

  it('stores the schedule, and a schedule change that sends one field keeps the other', async () => {
    const inbox = await newInbox();
    await seed(inbox, { steps: [{ type: 'email' }] });
    const weeklySchedule = { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] }, sunday: { isEnabled: false } };
    const set = await inbox.client.patch('/v1/inbox/preferences', { schedule: { isEnabled: true, weeklySchedule } });
    expect(set.status).toBe(200);
    expect(set.body.data.schedule).toEqual({ isEnabled: true, weeklySchedule });

    const off = await inbox.client.patch('/v1/inbox/preferences', { schedule: { isEnabled: false } });
    expect(off.body.data.schedule).toEqual({ isEnabled: false, weeklySchedule });
    const friday = { friday: { isEnabled: true, hours: [{ start: '10:00 AM', end: '11:30 AM' }] } };
    const days = await inbox.client.patch('/v1/inbox/preferences', { email: false, schedule: { weeklySchedule: friday } });
    expect(days.body.data).toEqual({
      level: 'global',
      enabled: true,
      channels: { email: false },
      schedule: { isEnabled: false, weeklySchedule: friday },
    });

    expect((await inbox.client.get('/v1/inbox/preferences/global')).body.data.schedule).toEqual({
      isEnabled: false,
      weeklySchedule: friday,
    });
    expect((await list(inbox))[0].schedule).toEqual({ isEnabled: false, weeklySchedule: friday });
    // The same stored schedule the v2 API and the pipeline read.
    expect((await v2Preferences(inbox)).global.schedule).toEqual({ isEnabled: false, weeklySchedule: friday });
  });

  it('refuses bad bodies with a 4xx naming the field, and writes nothing', async () => {
    const inbox = await newInbox();
    await seed(inbox, { steps: [{ type: 'email' }] });
    const bad: [unknown, string][] = [
      [{ email: 'no' }, 'email'],
      [{ email: false, enabled: false }, 'enabled'],
      [{ email: false, tool: true }, 'tool'],
      [{ email: false, schedule: { isEnabled: 'yes' } }, 'schedule.isEnabled'],
      [
        { schedule: { weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9:00', end: '05:00 PM' }] } } } },
        'schedule.weeklySchedule.monday.hours.0.start',
      ],
      [
        { schedule: { weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '05:00 PM', end: '09:00 AM' }] } } } },
        'schedule.weeklySchedule.monday.hours.0.end',
      ],
      [[], 'body'],
    ];
    for (const [body, field] of bad) {
      const res = await inbox.client.patch('/v1/inbox/preferences', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    const malformed = await inbox.client.request('PATCH', '/v1/inbox/preferences', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Invalid or malformed JSON was provided');
    expect((await inbox.client.get('/v1/inbox/preferences/global')).body.data).toEqual({
      level: 'global',
      enabled: true,
      channels: { email: true },
      schedule: { isEnabled: false },
    });
  });
});

describe('PATCH /v1/inbox/preferences/{workflowIdOrIdentifier}', () => {
  it('changes the channels sent, by database id or by identifier, and answers the item', async () => {
    const inbox = await newInbox();
    const wf = await seed(inbox, { name: 'Digest', tags: ['t'], severity: 'low', steps: [{ type: 'email' }, { type: 'in_app' }] });
    const byId = await inbox.client.patch(`/v1/inbox/preferences/${wf._id}`, { email: false });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual({
      level: 'template',
      enabled: true,
      channels: { email: false, in_app: true },
      overrides: [
        { channel: 'email', source: 'subscriber' },
        { channel: 'in_app', source: 'template' },
      ],
      workflow: { id: wf._id, identifier: wf.workflowId, name: 'Digest', critical: false, tags: ['t'], severity: 'low' },
    });
    const byIdentifier = await inbox.client.patch(`/v1/inbox/preferences/${wf.workflowId}`, { in_app: false });
    expect(byIdentifier.body.data.channels).toEqual({ email: false, in_app: false });
    expect((await itemOf(inbox, wf)).channels).toEqual({ email: false, in_app: false });
    // An empty change changes nothing and answers the item.
    expect((await inbox.client.patch(`/v1/inbox/preferences/${wf._id}`, {})).body.data).toEqual(byIdentifier.body.data);
  });

  it('switches the whole workflow off with enabled: false: shown everywhere, and nothing is delivered', async () => {
    const inbox = await newInbox();
    const wf = await createWorkflow(inbox.admin, [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    const off = await inbox.client.patch(`/v1/inbox/preferences/${wf}`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, channels: { in_app: true } });
    expect((await list(inbox))[1]).toMatchObject({ enabled: false, workflow: { identifier: wf } });
    expect((await v2Preferences(inbox)).workflows[0]).toMatchObject({ enabled: false, channels: { in_app: true } });

    const [muted] = await settled(inbox.admin, await trigger(inbox.admin, wf, inbox.subscriberId));
    expect(muted.jobs[0].status).toBe('canceled');
    expect(muted.jobs[0].executionDetails.map((d: any) => d.detail)).toContain('Step filtered by subscriber workflow preferences');
    expect(await messagesOf(inbox.admin, inbox.subscriberId)).toHaveLength(0);

    expect((await inbox.client.patch(`/v1/inbox/preferences/${wf}`, { enabled: true })).body.data.enabled).toBe(true);
    await settled(inbox.admin, await trigger(inbox.admin, wf, inbox.subscriberId));
    expect(await messagesOf(inbox.admin, inbox.subscriberId)).toHaveLength(1);
  });

  it('refuses what it cannot honour (condition, schedule, tool, unknown fields) by name, and writes nothing', async () => {
    const inbox = await newInbox();
    const wf = await seed(inbox, { steps: [{ type: 'email' }] });
    const bad: [unknown, string][] = [
      [{ email: false, condition: { '==': [{ var: 'payload.x' }, 1] } }, 'condition'],
      [{ email: false, schedule: { isEnabled: true } }, 'schedule'],
      [{ email: false, tool: false }, 'tool'],
      [{ email: false, sound: 'on' }, 'sound'],
      [{ email: null }, 'email'],
      [{ enabled: 'false' }, 'enabled'],
    ];
    for (const [body, field] of bad) {
      const res = await inbox.client.patch(`/v1/inbox/preferences/${wf._id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect(await itemOf(inbox, wf)).toMatchObject({ enabled: true, channels: { email: true } });
  });

  it('answers 400 for a critical workflow, 404 for an unknown one', async () => {
    const inbox = await newInbox();
    const vital = await seed(inbox, { steps: [{ type: 'sms' }], userPreferences: critical });
    for (const ref of [vital._id, vital.workflowId]) {
      const res = await inbox.client.patch(`/v1/inbox/preferences/${ref}`, { sms: false });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`Critical workflow with id: ${ref} can not be updated`);
    }
    const missing = await inbox.client.patch('/v1/inbox/preferences/no-such-workflow', { sms: false });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Workflow with id: no-such-workflow is not found');
    expect((await itemOf(inbox, vital)).channels).toEqual({ sms: true });
  });
});

describe('PATCH /v1/inbox/preferences/bulk', () => {
  it('changes several workflows by id or identifier; items of one workflow apply in order', async () => {
    const inbox = await newInbox();
    const a = await seed(inbox, { name: 'A', steps: [{ type: 'email' }, { type: 'sms' }] });
    const b = await seed(inbox, { name: 'B', steps: [{ type: 'push' }] });
    const res = await inbox.client.patch('/v1/inbox/preferences/bulk', {
      preferences: [
        { workflowId: b.workflowId, push: false },
        { workflowId: a._id, email: false, sms: false },
        { workflowId: a.workflowId, sms: true, enabled: false },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: any) => [i.workflow.name, i.enabled, i.channels])).toEqual([
      ['B', true, { push: false }],
      ['A', false, { email: false, sms: true }],
    ]);
    expect((await list(inbox)).slice(1).map((i) => [i.workflow.name, i.enabled, i.channels])).toEqual([
      ['A', false, { email: false, sms: true }],
      ['B', true, { push: false }],
    ]);
    expect((await inbox.client.patch('/v1/inbox/preferences/bulk', { preferences: [] })).body).toEqual({ data: [] });
  });

  it('is its own route, even beside a workflow whose identifier is "bulk"', async () => {
    const inbox = await newInbox();
    const named = await seed(inbox, { workflowId: 'bulk', steps: [{ type: 'email' }] });
    const res = await inbox.client.patch('/v1/inbox/preferences/bulk', { email: false });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain('preferences');
    // By database id, that workflow is still reached through the per-workflow route.
    expect((await inbox.client.patch(`/v1/inbox/preferences/${named._id}`, { email: false })).body.data.channels).toEqual({ email: false });
  });

  it('writes nothing when any item names an unknown or critical workflow, or is malformed', async () => {
    const inbox = await newInbox();
    const a = await seed(inbox, { steps: [{ type: 'email' }] });
    const vital = await seed(inbox, { steps: [{ type: 'sms' }], userPreferences: critical });
    const cases: [unknown, number, string][] = [
      [
        {
          preferences: [
            { workflowId: a._id, email: false },
            { workflowId: 'nope', email: false },
          ],
        },
        404,
        'Workflow with id: nope is not found',
      ],
      [
        {
          preferences: [
            { workflowId: a._id, email: false },
            { workflowId: vital.workflowId, sms: false },
          ],
        },
        400,
        `Critical workflow with id: ${vital.workflowId} can not be updated`,
      ],
      [
        {
          preferences: [
            { workflowId: a._id, email: false },
            { workflowId: a._id, condition: {} },
          ],
        },
        422,
        'Validation Error',
      ],
      [{ preferences: [{ workflowId: a._id, email: false }, { email: false }] }, 422, 'Validation Error'],
      [{ preferences: Array.from({ length: 101 }, () => ({ workflowId: a._id, email: false })) }, 422, 'Validation Error'],
      [{}, 422, 'Validation Error'],
    ];
    for (const [body, status, message] of cases) {
      const res = await inbox.client.patch('/v1/inbox/preferences/bulk', body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect((await itemOf(inbox, a)).channels).toEqual({ email: true });
  });
});

describe('who the token opens', () => {
  it("changes and shows only its own subscriber's preferences", async () => {
    const ann = await newInbox();
    const bob = await newSubscriber(ann.env);
    const wf = await seed(ann, { steps: [{ type: 'email' }, { type: 'sms' }] });
    await ann.client.patch('/v1/inbox/preferences', { email: false });
    await ann.client.patch(`/v1/inbox/preferences/${wf._id}`, { sms: false, enabled: false });
    await ann.client.patch('/v1/inbox/preferences/bulk', { preferences: [{ workflowId: wf.workflowId, email: true }] });

    expect(await list(bob)).toEqual([
      { level: 'global', enabled: true, channels: { email: true, sms: true }, schedule: { isEnabled: false } },
      expect.objectContaining({ enabled: true, channels: { email: true, sms: true } }),
    ]);
    expect((await list(ann))[1]).toMatchObject({ enabled: false, channels: { email: true, sms: false } });
  });

  it("never reaches another environment's workflows", async () => {
    const org = await createTestOrg(api.url);
    const dev = await newSubscriber(org.dev);
    const prodWorkflow = await seedWorkflow(org.prod.scope, { name: 'Prod only', steps: [{ type: 'email' }] });
    expect(await names(dev, '?criticality=all')).toEqual([]);
    for (const ref of [prodWorkflow._id, prodWorkflow.workflowId]) {
      expect((await dev.client.patch(`/v1/inbox/preferences/${ref}`, { email: false })).status).toBe(404);
      expect((await dev.client.patch('/v1/inbox/preferences/bulk', { preferences: [{ workflowId: ref, email: false }] })).status).toBe(404);
    }
  });

  it('answers 401 without a valid session token, and 404 once its subscriber is gone or made again', async () => {
    const inbox = await newInbox();
    await seed(inbox, { steps: [{ type: 'email' }] });
    const anonymous = apiClient(api.url);
    const withKey = apiClient(api.url, inbox.env.apiKey);
    const headers: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { authorization: `ApiKey ${inbox.env.apiKey}` }];
    for (const header of headers) {
      const res = await anonymous.get('/v1/inbox/preferences', header);
      expect(res.status).toBe(401);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect((await withKey.patch('/v1/inbox/preferences', { email: false })).status).toBe(401);

    expect((await inbox.admin.delete(`/v2/subscribers/${inbox.subscriberId}`)).status).toBe(200);
    const gone = await inbox.client.get('/v1/inbox/preferences');
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(`Subscriber with id: ${inbox.subscriberId} not found`);
    // The same subscriberId made again is another subscriber: the old token does not open it.
    expect((await inbox.admin.post('/v2/subscribers', { subscriberId: inbox.subscriberId })).status).toBe(201);
    for (const res of [
      await inbox.client.get('/v1/inbox/preferences/global'),
      await inbox.client.patch('/v1/inbox/preferences', { email: false }),
      await inbox.client.patch('/v1/inbox/preferences/bulk', { preferences: [] }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await v2Preferences(inbox)).global.channels).toEqual({ email: true });
  });
});

describe('through @novu/js', () => {
  it('lists, filters and changes preferences, several at once, the global ones and the schedule', async () => {
    const { dev } = await createTestOrg(api.url);
    const a = await seedWorkflow(dev.scope, {
      name: 'A',
      tags: ['billing'],
      severity: 'high',
      steps: [{ type: 'email' }, { type: 'in_app' }],
    });
    const b = await seedWorkflow(dev.scope, { name: 'B', tags: ['news'], steps: [{ type: 'push' }] });
    await seedWorkflow(dev.scope, { name: 'Vital', steps: [{ type: 'sms' }], userPreferences: critical });
    const subscriberId = `novu-${randomUUID()}`;
    const novu = new Novu({
      applicationIdentifier: dev.applicationIdentifier,
      subscriber: { subscriberId },
      apiUrl: api.url,
      useCache: false,
    } as ConstructorParameters<typeof Novu>[0]);
    const listed = async (args: Parameters<Novu['preferences']['list']>[0] = {}) => {
      const { data, error } = await novu.preferences.list(args);
      expect(error).toBeUndefined();
      return data!;
    };

    const all = await listed();
    expect(all.map((p) => [p.level, p.workflow?.name, p.enabled, p.channels])).toEqual([
      ['global', undefined, true, { email: true, in_app: true, push: true }],
      ['template', 'A', true, { email: true, in_app: true }],
      ['template', 'B', true, { push: true }],
    ]);
    expect(all[0]!.schedule.isEnabled).toBe(false);
    expect(all[1]!.workflow).toEqual({
      id: a._id,
      identifier: a.workflowId,
      name: 'A',
      critical: false,
      tags: ['billing'],
      severity: 'high',
    });
    expect((await listed({ tags: ['news', 'nope'] })).map((p) => p.workflow?.name)).toEqual([undefined, 'B']);
    expect((await listed({ severity: SeverityLevelEnum.HIGH })).map((p) => p.workflow?.name)).toEqual([undefined, 'A']);
    expect((await listed({ severity: [SeverityLevelEnum.NONE, SeverityLevelEnum.LOW] })).map((p) => p.workflow?.name)).toEqual([
      undefined,
      'B',
    ]);
    expect((await listed({ criticality: WorkflowCriticalityEnum.CRITICAL })).map((p) => p.workflow?.name)).toEqual([undefined, 'Vital']);

    // One workflow, from its Preference (the client sends workflow.id), then by identifier.
    const updated = await all[1]!.update({ channels: { email: false } });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.channels).toEqual({ email: false, in_app: true });
    const byIdentifier = await novu.preferences.update({ workflowId: b.workflowId, channels: { push: false } });
    expect(byIdentifier.data!.channels).toEqual({ push: false });

    // Several at once (the groups of <Inbox />).
    const bulk = await novu.preferences.bulkUpdate([
      { preference: all[1]!, channels: { in_app: false } },
      { preference: all[2]!, channels: { push: true } },
    ]);
    expect(bulk.error).toBeUndefined();
    expect(bulk.data!.map((p) => [p.workflow?.name, p.channels])).toEqual([
      ['A', { email: false, in_app: false }],
      ['B', { push: true }],
    ]);

    // The global channels, then the schedule.
    const global = await all[0]!.update({ channels: { push: false } });
    expect(global.data).toMatchObject({ level: 'global', channels: { email: true, in_app: true, push: false } });
    expect((await listed())[2]!.channels).toEqual({ push: true }); // B's own choice wins over the global one
    const weeklySchedule = { monday: { isEnabled: true, hours: [{ start: '08:00 AM', end: '06:00 PM' }] } };
    const schedule = await novu.preferences.schedule.update({ isEnabled: true, weeklySchedule });
    expect(schedule.error).toBeUndefined();
    expect(schedule.data).toMatchObject({ isEnabled: true, weeklySchedule });
    const read = await novu.preferences.schedule.get();
    expect(read.data).toMatchObject({ isEnabled: true, weeklySchedule });
    const off = await read.data!.update({ isEnabled: false });
    expect(off.data).toMatchObject({ isEnabled: false, weeklySchedule });

    // A refusal reaches the app as an error with the server's status and message.
    const vital = (await listed({ criticality: WorkflowCriticalityEnum.CRITICAL }))[1]!;
    const refused = await vital.update({ channels: { sms: false } });
    expect((refused.error?.originalError as { status?: number }).status).toBe(400);
    expect(String((refused.error?.originalError as Error).message)).toContain(
      `Critical workflow with id: ${vital.workflow!.id} can not be updated`,
    );
  });
});
