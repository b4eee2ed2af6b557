import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { newId } from '#lib/ids.ts';
import { DEMO_WORKFLOW } from '#lib/workflows/demo.ts';
import { saveWorkflow } from '#lib/workflows/repository.ts';
import { createTestOrg, startTestApi, type ApiClient } from '../support/api.ts';
import { seedWorkflow } from '../support/workflow-builder.ts';

// The v2 workflow API and sync (PUT /v2/workflows/{workflowId}/sync), end to end through the
// route table and the real handlers. Every test provisions its own organization.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const newTestOrg = () => createTestOrg(api.url);

const IN_APP = {
  name: 'Inbox',
  type: 'in_app',
  controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'You have {{payload.count}} news' },
};
const EMAIL = { name: 'Mail', type: 'email', controlValues: { subject: 'News', body: '<p>Hello {{subscriber.email}}</p>' } };
const DIGEST = { name: 'Batch', stepId: 'batch', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } };

async function create(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post('/v2/workflows', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const unique = (prefix: string) => `${prefix}-${newId()}`;

describe('POST /v2/workflows', () => {
  it('creates a workflow and answers the Workflow v2 shape', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, {
      name: 'Welcome Flow!',
      description: 'Greets',
      tags: ['onboarding'],
      active: true,
      severity: 'high',
      payloadSchema: { type: 'object', properties: { count: { type: 'number' } } },
      preferences: { user: { all: { readOnly: true }, channels: { email: { enabled: false } } } },
      steps: [IN_APP, EMAIL, DIGEST],
    });
    expect(wf.workflowId).toBe('welcome-flow');
    expect(wf.slug).toMatch(/^welcome-flow_wf_[0-9A-Za-z]{16}$/);
    expect(wf).toMatchObject({
      name: 'Welcome Flow!',
      description: 'Greets',
      tags: ['onboarding'],
      active: true,
      origin: 'svc-cloud',
      status: 'ACTIVE',
      severity: 'high',
      critical: true,
      validatePayload: false,
      isTranslationEnabled: false,
      payloadExample: { count: 0 },
      lastPublishedAt: null,
    });
    expect(wf.preferences.user).toEqual({
      all: { enabled: true, readOnly: true },
      channels: {
        email: { enabled: false },
        sms: { enabled: true },
        in_app: { enabled: true },
        chat: { enabled: true },
        push: { enabled: true },
      },
    });
    expect(wf.preferences.default.all).toEqual({ enabled: true, readOnly: false });

    const [inApp, email, digest] = wf.steps;
    expect(inApp).toMatchObject({
      stepId: 'inbox',
      type: 'in_app',
      origin: 'svc-cloud',
      workflowId: 'welcome-flow',
      workflowDatabaseId: wf._id,
      issues: {},
    });
    expect(inApp.slug).toMatch(/^inbox_st_/);
    expect(inApp.controls.values).toEqual(IN_APP.controlValues);
    expect(inApp.controls.uiSchema.group).toBe('IN_APP');
    expect(inApp.controls.uiSchema.properties.body.component).toBe('IN_APP_BODY');
    expect(inApp.controls.dataSchema.properties.avatar.type).toBe('string');
    expect(email.controls.dataSchema.required).toEqual(['subject', 'body']);
    expect(digest.controls.dataSchema.properties.amount.minimum).toBe(1);
    expect(digest.variables.properties.steps.properties).toHaveProperty('inbox');
    expect(inApp.variables.properties.payload).toEqual({ type: 'object', properties: { count: { type: 'number' } } });
  });

  it('takes the npm start demo workflow without issues', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, DEMO_WORKFLOW);
    expect(wf.status).toBe('ACTIVE');
    expect(wf.steps.map((s: any) => s.issues)).toEqual([{}, {}, {}]);
  });

  it('refuses a used workflowId with 409', async () => {
    const { dev } = await newTestOrg();
    await create(dev.client, { name: 'Dup', workflowId: 'dup', steps: [] });
    const res = await dev.client.post('/v2/workflows', { name: 'Other', workflowId: 'dup', steps: [] });
    expect(res.status).toBe(409);
  });

  it('validates control values per kind, naming the step in the field path', async () => {
    const { dev } = await newTestOrg();
    const res = await dev.client.post('/v2/workflows', {
      name: 'Bad',
      steps: [
        { name: 'Inbox', type: 'in_app', controlValues: { avatar: 'not a url' } },
        { name: 'Digest', type: 'digest', controlValues: { amount: 0, cron: 'every day' } },
        { name: 'Mail', type: 'email', controlValues: { body: 'x' } },
        { name: 'Wait', type: 'delay', controlValues: { cron: '' } },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'steps.0.controlValues.avatar',
      'steps.0.controlValues.body',
      'steps.1.controlValues.amount',
      'steps.1.controlValues.cron',
      'steps.2.controlValues.subject',
      'steps.3.controlValues.cron',
    ]);
    expect(res.body.errors['steps.1.controlValues.amount'].value).toBe(0);
  });

  it('accepts an avatar that is a URL, a path or a variable', async () => {
    const { dev } = await newTestOrg();
    for (const avatar of ['https://example.com/a.png', '/a.png', '{{subscriber.avatar}}']) {
      await create(dev.client, { name: unique('Avatar'), steps: [{ name: 'In', type: 'in_app', controlValues: { body: 'b', avatar } }] });
    }
  });

  it('refuses two steps with the same stepId', async () => {
    const { dev } = await newTestOrg();
    const res = await dev.client.post('/v2/workflows', { name: 'Twice', steps: [EMAIL, EMAIL] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty(['steps.1.stepId']);
  });
});

describe('payloadSchema', () => {
  it('refuses a payloadSchema that is not a JSON Schema (422) and saves nothing', async () => {
    const { dev } = await newTestOrg();
    const workflowId = unique('bad-schema');
    const res = await dev.client.post('/v2/workflows', {
      name: 'Bad schema',
      workflowId,
      payloadSchema: { type: 'object', properties: { count: { type: 'no-such-type' } } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.payloadSchema.messages[0]).toMatch(/^payloadSchema is not a valid JSON Schema/);
    expect((await dev.client.get(`/v2/workflows/${workflowId}`)).status).toBe(404);
  });

  it('refuses it on PUT and PATCH too, naming the field and echoing the schema sent', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, { name: 'Schema edits', steps: [IN_APP] });
    const payloadSchema = { type: 'object', properties: { count: { type: 'no-such-type' } } };
    const answers = [
      await dev.client.put(`/v2/workflows/${wf.workflowId}`, { name: 'Schema edits', steps: [IN_APP], payloadSchema }),
      await dev.client.patch(`/v2/workflows/${wf.workflowId}`, { payloadSchema }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ message: 'Validation Error', errors: { payloadSchema: { value: payloadSchema } } });
      expect(res.body.errors.payloadSchema.messages).toEqual([expect.stringMatching(/^payloadSchema is not a valid JSON Schema/)]);
    }
    expect((await dev.client.get(`/v2/workflows/${wf.workflowId}`)).body.payloadSchema).toBeNull();
  });

  it('takes a schema with an $id as often as it is saved', async () => {
    const { dev } = await newTestOrg();
    const payloadSchema = { $id: 'https://example.com/order.json', type: 'object', properties: { id: { type: 'string' } } };
    const wf = await create(dev.client, { name: 'Identified', payloadSchema, steps: [] });
    const again = await dev.client.patch(`/v2/workflows/${wf.workflowId}`, { payloadSchema });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await create(dev.client, { name: 'Identified too', payloadSchema, steps: [] });
  });
});

describe('issues and status', () => {
  it('reports each issue type and derives ERROR', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, {
      name: 'Issues',
      active: true,
      payloadSchema: { type: 'object', properties: { name: { type: 'string' } } },
      steps: [
        { name: 'Mail', type: 'email', controlValues: { subject: '', body: 'Hi {{payload.name | nosuchfilter}}' } },
        { name: 'Inbox', type: 'in_app', controlValues: { body: '{{payload.missing}} {{steps.later.x}} {{steps.mail.y}}' } },
        { name: 'Chat', type: 'chat', controlValues: { body: 'x' } },
      ],
    });
    expect(wf.status).toBe('ERROR');
    const [mail, inbox, chat] = wf.steps;
    expect(mail.issues.controls.subject).toEqual([{ issueType: 'MISSING_VALUE', message: 'subject is required' }]);
    expect(mail.issues.controls.body[0].issueType).toBe('INVALID_FILTER_ARG_IN_VARIABLE');
    expect(inbox.issues.controls.body.map((i: any) => [i.issueType, i.variableName])).toEqual([
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'payload.missing'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'steps.later.x'],
    ]);
    expect(chat.issues).toEqual({ integration: { chat: [expect.objectContaining({ issueType: 'MISSING_INTEGRATION' })] } });
  });

  it('knows the reference filters: pluralize, toSentence, digest and json raise no issue; bad toSentence arguments do', async () => {
    const { dev } = await newTestOrg();
    const digestStep = { name: 'Digest', stepId: 'digest-step', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } };
    const inbox = (controlValues: Record<string, unknown>) => ({ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues });
    const payloadSchema = { type: 'object', properties: { count: { type: 'number' }, names: { type: 'array' } } };
    const wf = await create(dev.client, {
      name: 'Filters',
      active: true,
      payloadSchema,
      steps: [
        digestStep,
        inbox({
          subject: "{{ payload.count | pluralize: 'comment', 'comments', false }}",
          body:
            "{{ steps.digest-step.eventCount | minus: 5 | pluralize: 'more comment', '' }} " +
            "{{ steps.digest-step.events | toSentence: 'payload.name', 3 }} {{ payload.names | digest: 2 }} {{ payload.names | json }}",
        }),
      ],
    });
    expect(wf.status).toBe('ACTIVE');
    expect(wf.steps.map((s: any) => s.issues)).toEqual([{}, {}]);

    const res = await dev.client.put(`/v2/workflows/${wf.workflowId}`, {
      name: 'Filters',
      active: true,
      payloadSchema,
      steps: [digestStep, inbox({ body: '{{ steps.digest-step.events | toSentence }}' })],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.steps[1].issues.controls.body).toEqual([
      { issueType: 'INVALID_FILTER_ARG_IN_VARIABLE', message: '"toSentence" expects at least 1 argument (keyPath)' },
    ]);
  });

  it('follows the payload schema: a PATCH declaring the variable a template uses clears its issue', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, {
      name: 'Declared',
      payloadSchema: { type: 'object', properties: {} },
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi {{payload.name}}' } }],
    });
    expect(wf.steps[0].issues.controls.body).toEqual([
      expect.objectContaining({ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'payload.name' }),
    ]);
    const res = await dev.client.patch(`/v2/workflows/${wf.workflowId}`, {
      payloadSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.steps[0].issues).toEqual({});
    expect((await dev.client.get(`/v2/workflows/${wf.workflowId}`)).body.steps[0].issues).toEqual({});
  });

  it('clears MISSING_INTEGRATION once the channel has an active integration', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, {
      name: 'Chatty',
      active: true,
      steps: [{ name: 'Chat', type: 'chat', controlValues: { body: 'x' } }],
    });
    expect(wf.status).toBe('ERROR');
    const integration = await dev.client.post('/v1/integrations', { providerId: 'discord', channel: 'chat', active: true });
    expect(integration.status).toBe(201);
    const again = await dev.client.get(`/v2/workflows/${wf.workflowId}`);
    expect(again.body.status).toBe('ACTIVE');
    expect(again.body.steps[0].issues).toEqual({});
  });

  it('is INACTIVE when switched off (PATCH)', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, { name: 'Toggle', active: true, steps: [IN_APP] });
    const res = await dev.client.patch(`/v2/workflows/${wf._id}`, { active: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: false, status: 'INACTIVE' });
    expect(res.body.steps[0]._id).toBe(wf.steps[0]._id);
  });
});

describe('GET, PUT, DELETE /v2/workflows/{workflowId}', () => {
  it('finds a workflow by workflowId, database id and slug; 404 otherwise', async () => {
    const { dev, prod } = await newTestOrg();
    const wf = await create(dev.client, { name: 'Findable', steps: [IN_APP] });
    for (const ref of [wf.workflowId, wf._id, wf.slug]) {
      const res = await dev.client.get(`/v2/workflows/${ref}`);
      expect(res.status, ref).toBe(200);
      expect(res.body._id).toBe(wf._id);
    }
    expect((await dev.client.get('/v2/workflows/000000000000000000000000')).status).toBe(404);
    expect((await dev.client.get('/v2/workflows/no_wf_%24%24')).status).toBe(404);
    expect((await prod.client.get(`/v2/workflows/${wf._id}`)).status).toBe(404);
  });

  it('updates: steps matched by stepId keep their _id, others are new, missing ones go', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, { name: 'Evolving', tags: ['a'], steps: [IN_APP, EMAIL, DIGEST] });
    const res = await dev.client.put(`/v2/workflows/${wf.workflowId}`, {
      name: 'Evolved',
      steps: [
        { ...DIGEST, controlValues: { amount: 10, unit: 'hours' } },
        { name: 'Text', type: 'sms', controlValues: { body: 'hi' } },
        { ...IN_APP, stepId: 'inbox' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byStepId = Object.fromEntries(res.body.steps.map((s: any) => [s.stepId, s]));
    expect(Object.keys(byStepId)).toEqual(['batch', 'text', 'inbox']);
    expect(byStepId.batch._id).toBe(wf.steps[2]._id);
    expect(byStepId.batch.controls.values).toEqual({ amount: 10, unit: 'hours' });
    expect(byStepId.inbox._id).toBe(wf.steps[0]._id);
    expect(wf.steps.map((s: any) => s._id)).not.toContain(byStepId.text._id);
    expect(res.body).toMatchObject({ name: 'Evolved', workflowId: wf.workflowId, tags: ['a'] });
    expect(res.body.slug).toMatch(/^evolved_wf_/);
  });

  it('deletes with 204', async () => {
    const { dev } = await newTestOrg();
    const wf = await create(dev.client, { name: 'Doomed', steps: [] });
    const res = await dev.client.delete(`/v2/workflows/${wf.slug}`);
    expect(res.status).toBe(204);
    expect((await dev.client.get(`/v2/workflows/${wf.workflowId}`)).status).toBe(404);
    expect((await dev.client.delete(`/v2/workflows/${wf.workflowId}`)).status).toBe(404);
  });
});

describe('GET /v2/workflows', () => {
  it('searches by name or tag and pages with an exact totalCount', async () => {
    const { dev } = await newTestOrg();
    for (let i = 0; i < 5; i++) {
      await create(dev.client, { name: `Alpha ${i}`, tags: i % 2 ? ['odd'] : ['even'], steps: [IN_APP] });
    }
    await create(dev.client, { name: 'Beta', tags: ['odd'], steps: [] });

    const all = await dev.client.get('/v2/workflows?limit=4&offset=0');
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBe(6);
    expect(all.body.workflows.map((w: any) => w.name)).toEqual(['Beta', 'Alpha 4', 'Alpha 3', 'Alpha 2']);
    expect(all.body.workflows[1].stepTypeOverviews).toEqual(['in_app']);
    const next = await dev.client.get('/v2/workflows?limit=4&offset=4');
    expect(next.body.workflows.map((w: any) => w.name)).toEqual(['Alpha 1', 'Alpha 0']);

    const byName = await dev.client.get('/v2/workflows?query=alpha&orderDirection=ASC&limit=2');
    expect(byName.body).toMatchObject({ totalCount: 5, workflows: [{ name: 'Alpha 0' }, { name: 'Alpha 1' }] });
    const byTag = await dev.client.get('/v2/workflows?query=odd');
    expect(byTag.body.workflows.map((w: any) => w.name).sort()).toEqual(['Alpha 1', 'Alpha 3', 'Beta']);

    expect((await dev.client.get('/v2/workflows?limit=0')).status).toBe(422);
  });
});

describe('PUT /v2/workflows/{workflowId}/sync', () => {
  it('refuses in the documented order: same env 400, foreign env 404, unknown workflow 404, origin 400', async () => {
    const { dev, prod } = await newTestOrg();
    const other = await newTestOrg();
    const wf = await create(dev.client, { name: 'Syncable', steps: [] });

    const same = await dev.client.put('/v2/workflows/nope/sync', { targetEnvironmentId: dev.id });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('Cannot sync workflow to the same environment');

    const foreign = await dev.client.put(`/v2/workflows/${wf._id}/sync`, { targetEnvironmentId: other.prod.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`Environment ${other.prod.id} not found`);

    expect((await dev.client.put('/v2/workflows/nope/sync', { targetEnvironmentId: prod.id })).status).toBe(404);
    expect((await dev.client.put('/v2/workflows/nope/sync', {})).status).toBe(422);

    const external = await seedWorkflow(dev.scope, { origin: 'external' });
    const refused = await dev.client.put(`/v2/workflows/${external.workflowId}/sync`, { targetEnvironmentId: prod.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Cannot sync workflow: origin 'external' is not allowed (must be one of: svc-cloud)");
  });

  it('creates the workflow in the target, then updates it: steps matched by stepId, target-only steps removed', async () => {
    const { dev, prod } = await newTestOrg();
    const source = await create(dev.client, {
      name: 'Published',
      workflowId: 'published',
      description: 'v1',
      tags: ['t'],
      active: true,
      severity: 'medium',
      validatePayload: true,
      payloadSchema: { type: 'object', properties: { count: { type: 'number' } } },
      preferences: { user: { all: { readOnly: true } } },
      steps: [IN_APP, EMAIL, DIGEST],
    });

    const first = await dev.client.put(`/v2/workflows/${source.slug}/sync`, { targetEnvironmentId: prod.id });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const target = first.body;
    expect(target._id).not.toBe(source._id);
    expect(target).toMatchObject({
      workflowId: 'published',
      name: 'Published',
      description: 'v1',
      tags: ['t'],
      active: true,
      severity: 'medium',
      validatePayload: true,
      payloadSchema: source.payloadSchema,
      origin: 'svc-cloud',
      status: 'ACTIVE',
      critical: true,
      preferences: source.preferences,
    });
    expect(target.steps.map((s: any) => s.stepId)).toEqual(['inbox', 'mail', 'batch']);
    expect(target.steps.map((s: any) => s.controls.values)).toEqual(source.steps.map((s: any) => s.controls.values));
    expect(target.steps[0].workflowDatabaseId).toBe(target._id);

    const published = (await dev.client.get(`/v2/workflows/${source._id}`)).body;
    expect(typeof published.lastPublishedAt).toBe('string');
    expect(published.lastPublishedBy._id).toEqual(expect.any(String));

    // Change the source: drop the email step, change the digest, add a chat step.
    await dev.client.put(`/v2/workflows/${source._id}`, {
      name: 'Published v2',
      description: 'v2',
      preferences: { user: null },
      steps: [
        IN_APP,
        { ...DIGEST, controlValues: { amount: 2, unit: 'hours' } },
        { name: 'Chat', type: 'chat', controlValues: { body: 'c' } },
      ],
    });
    // The source environment has a chat integration, the target does not.
    await dev.client.post('/v1/integrations', { providerId: 'discord', channel: 'chat', active: true });
    expect((await dev.client.get(`/v2/workflows/${source._id}`)).body.status).toBe('ACTIVE');

    const second = await dev.client.put(`/v2/workflows/${source.workflowId}/sync`, { targetEnvironmentId: prod.id });
    expect(second.status).toBe(200);
    const updated = second.body;
    expect(updated._id).toBe(target._id);
    expect(updated).toMatchObject({ name: 'Published v2', description: 'v2', preferences: { user: null } });
    expect(updated.steps.map((s: any) => s.stepId)).toEqual(['inbox', 'batch', 'chat']);
    expect(updated.steps[0]._id).toBe(target.steps[0]._id);
    expect(updated.steps[1]._id).toBe(target.steps[2]._id);
    expect(updated.steps[1].controls.values).toEqual({ amount: 2, unit: 'hours' });
    // Issues are the target's own: no chat integration in production.
    expect(updated.status).toBe('ERROR');
    expect(updated.steps[2].issues.integration.chat[0].issueType).toBe('MISSING_INTEGRATION');

    const list = await prod.client.get('/v2/workflows');
    expect(list.body.totalCount).toBe(1);
  });

  it('ends with one target workflow when two syncs race', async () => {
    const { dev, prod } = await newTestOrg();
    const source = await create(dev.client, { name: 'Racy', active: true, steps: [IN_APP, EMAIL] });
    const results = await Promise.all(
      [1, 2, 3].map(() => dev.client.put(`/v2/workflows/${source._id}/sync`, { targetEnvironmentId: prod.id })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body._id)).size).toBe(1);
    expect((await prod.client.get('/v2/workflows')).body.totalCount).toBe(1);
  });

  it('keeps a source that is not active inactive in the target', async () => {
    const { dev, prod } = await newTestOrg();
    const source = await create(dev.client, { name: 'Quiet', steps: [IN_APP] });
    const res = await dev.client.put(`/v2/workflows/${source._id}/sync`, { targetEnvironmentId: prod.id });
    expect(res.body).toMatchObject({ active: false, status: 'INACTIVE' });
  });
});

// What the pipeline and other writers store directly is served by the same view.
describe('stored workflows', () => {
  it('serves a workflow stored without the API', async () => {
    const { dev } = await newTestOrg();
    const seeded = await seedWorkflow(dev.scope, { name: 'Seeded' });
    await saveWorkflow({ ...seeded, description: 'direct' }, { ...seeded, version: 1 });
    const res = await dev.client.get(`/v2/workflows/${seeded.workflowId}`);
    expect(res.body).toMatchObject({ name: 'Seeded', description: 'direct' });
  });
});
