import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { messagesOf, rand, settled } from '../support/pipeline.ts';

// Workflows through the legacy v1 API (/v1/notification-templates) as an app written against
// `@novu/node` 2.x drives them, end to end through the route table and the real handlers: the
// same stored workflows the v2 API shows, in the v1 shape and the reference's {data} envelope;
// a workflow made here delivers through the pipeline with its step filters, active flags and
// shouldStopOnFail as authored. Status codes and error bodies are checked over plain HTTP.

let api: LocalApi;
let env: TestEnv;
let novu: Novu;
let groupId: string;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  novu = new Novu(env.apiKey, { backendUrl: api.url });
  groupId = (await novu.notificationGroups.get()).data.data[0]._id;
});
afterAll(() => api.close());

/** What an axios call of `@novu/node` failed with: its status and body. */
async function failure(call: Promise<unknown>): Promise<{ status: number; body: any }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, body: response.data };
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A trigger's answer as `@novu/node` returns it: the axios response of the `{data}` envelope. */
const triggered = (res: { data: any }) => res.data.data as { acknowledged: boolean; status: string; transactionId: string };

const inApp = (content: string, extra: Record<string, unknown> = {}) => ({ template: { type: 'in_app', content }, ...extra });

describe('notification groups', () => {
  it('lists the one group of the environment, which every workflow belongs to', async () => {
    const list = await novu.notificationGroups.get();
    expect(list.status).toBe(200);
    expect(list.data.data).toEqual([{ _id: groupId, name: 'General', _environmentId: env.id, _organizationId: env.scope.organizationId }]);
    const one = await novu.notificationGroups.getOne(groupId);
    expect(one.data.data).toEqual(list.data.data[0]);
    expect((await failure(novu.notificationGroups.getOne('0'.repeat(24)))).status).toBe(404);
  });

  it("is the environment's own: another environment's group is not found", async () => {
    const other = await createTestOrg(api.url);
    const otherGroup = (await other.dev.client.get('/v1/notification-groups')).body.data[0]._id;
    expect(otherGroup).not.toBe(groupId);
    expect((await other.prod.client.get('/v1/notification-groups')).body.data[0]._id).not.toBe(otherGroup);
    expect((await env.client.get(`/v1/notification-groups/${otherGroup}`)).status).toBe(404);
  });
});

describe('notificationTemplates through @novu/node', () => {
  it('creates, reads, lists, updates, switches on and deletes a workflow', async () => {
    const name = `Order shipped ${rand()}`;
    const filters = [
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'payload', field: 'plan', operator: 'EQUAL', value: 'pro' }] },
    ];
    const created = await novu.notificationTemplates.create({
      name,
      notificationGroupId: groupId,
      description: 'Tells the buyer',
      tags: ['orders'],
      critical: true,
      preferenceSettings: { email: false },
      data: { team: 'shipping' },
      steps: [
        {
          name: 'Inbox',
          filters,
          template: {
            type: 'in_app',
            content: 'Order {{orderId}} shipped, {{subscriber.firstName}}',
            cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' }, action: { buttons: [{ type: 'primary', content: 'Track' }] } },
          },
        },
        { template: { type: 'digest', content: '' }, metadata: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'orderId' } },
        {
          active: false,
          shouldStopOnFail: true,
          replyCallback: { active: true, url: 'https://example.com/reply' },
          template: {
            type: 'email',
            subject: 'Shipped',
            content: [
              { type: 'text', content: 'Your order {{orderId}} is on its way' },
              { type: 'button', content: 'Track', url: 'https://example.com/t' },
            ],
          },
        },
      ],
    } as never);
    expect(created.status).toBe(201);
    const wf = created.data.data;
    const identifier = name.toLowerCase().replace(/ /g, '-');
    expect(wf).toMatchObject({
      name,
      description: 'Tells the buyer',
      tags: ['orders'],
      active: false,
      draft: true,
      critical: true,
      preferenceSettings: { email: false, sms: true, in_app: true, chat: true, push: true },
      _notificationGroupId: groupId,
      notificationGroup: { _id: groupId, name: 'General' },
      _environmentId: env.id,
      _organizationId: env.scope.organizationId,
      origin: 'svc-cloud-v1',
      data: { team: 'shipping' },
      deleted: false,
      triggers: [{ type: 'event', identifier, variables: [{ name: 'orderId' }], subscriberVariables: [{ name: 'firstName' }] }],
    });
    const [inbox, digest, email] = wf.steps;
    expect(inbox).toMatchObject({
      name: 'Inbox',
      active: true,
      shouldStopOnFail: false,
      filters,
      _parentId: null,
      template: {
        type: 'in_app',
        content: 'Order {{orderId}} shipped, {{subscriber.firstName}}',
        cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' }, action: { buttons: [{ type: 'primary', content: 'Track' }] } },
      },
    });
    expect(inbox._templateId).toBe(inbox._id);
    expect(digest).toMatchObject({
      name: 'Digest',
      _parentId: inbox._id,
      metadata: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'orderId', backoff: false },
    });
    expect(email).toMatchObject({
      active: false,
      shouldStopOnFail: true,
      replyCallback: { active: true, url: 'https://example.com/reply' },
      template: { type: 'email', subject: 'Shipped' },
    });
    expect(email.template.content).toContain('<a href="https://example.com/t">Track</a>');

    // Read back by database id and by trigger identifier; listed, newest first.
    expect((await novu.notificationTemplates.getOne(wf._id)).data.data).toEqual(wf);
    expect((await novu.notificationTemplates.getOne(identifier)).data.data).toEqual(wf);
    const page = await novu.notificationTemplates.getAll(0, 100);
    expect(page.data).toMatchObject({ page: 0, pageSize: 100 });
    expect(page.data.data[0]).toEqual(wf);
    expect(page.data.totalCount).toBe(page.data.data.length);

    // Update: the first step kept by its _templateId (same id), the digest dropped, a step added.
    const updated = await novu.notificationTemplates.update(wf._id, {
      name: `${name} again`,
      steps: [
        { _templateId: inbox._templateId, name: 'Inbox', template: { type: 'in_app', content: 'Order {{orderId}} is out' } },
        { name: 'Text', shouldStopOnFail: true, template: { type: 'sms', content: 'Order {{orderId}}' } },
      ],
    } as never);
    expect(updated.status).toBe(200);
    const after = updated.data.data;
    expect(after).toMatchObject({ name: `${name} again`, critical: true, triggers: [{ identifier }] });
    expect(after.steps.map((s: any) => s.template.type)).toEqual(['in_app', 'sms']);
    // Sent whole: the first step's filters went with the update that left them out.
    expect(after.steps[0]).toMatchObject({ _id: inbox._id, filters: [], template: { content: 'Order {{orderId}} is out' } });
    expect(after.steps[1]).toMatchObject({ shouldStopOnFail: true, _parentId: inbox._id });
    expect(after.steps[1]._id).not.toBe(digest._id);

    const on = await novu.notificationTemplates.updateStatus(wf._id, true);
    expect(on.data.data).toMatchObject({ active: true, draft: false });
    const again = await failure(novu.notificationTemplates.updateStatus(wf._id, true));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('You must provide a different status from the current status');

    const removed = await novu.notificationTemplates.delete(wf._id);
    expect(removed.status).toBe(200);
    expect(removed.data).toEqual({ data: true });
    expect((await failure(novu.notificationTemplates.getOne(wf._id))).status).toBe(404);
    expect((await env.client.get(`/v2/workflows/${wf._id}`)).status).toBe(404);
  });

  it('is the same workflow the v2 API shows: controls, origin, preferences', async () => {
    const created = await novu.notificationTemplates.create({
      name: `Consistent ${rand()}`,
      notificationGroupId: groupId,
      critical: true,
      preferenceSettings: { sms: false },
      steps: [
        inApp('Hi {{name}}', {
          template: {
            type: 'in_app',
            content: 'Hi {{name}}',
            subject: 'Hello',
            actor: { type: 'system_custom', data: 'https://example.com/a.png' },
          },
        }),
        { template: { type: 'delay', content: '' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } },
        {
          template: { type: 'digest', content: '' },
          metadata: { type: 'timed', unit: 'weeks', timed: { atTime: '09:30', weekDays: ['monday', 'friday'] } },
        },
        { template: { type: 'push', title: 'Title {{name}}', content: 'Body' } },
      ],
    } as never);
    const wf = created.data.data;
    const v2 = await env.client.get(`/v2/workflows/${wf._id}`);
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({
      _id: wf._id,
      workflowId: wf.triggers[0].identifier,
      name: wf.name,
      active: false,
      origin: 'svc-cloud-v1',
      critical: true,
      preferences: { user: { all: { readOnly: true }, channels: { sms: { enabled: false }, email: { enabled: true } } } },
    });
    expect(v2.body.steps.map((s: any) => [s._id, s.type, s.controlValues])).toEqual([
      [wf.steps[0]._id, 'in_app', { body: 'Hi {{name}}', subject: 'Hello', avatar: 'https://example.com/a.png' }],
      [wf.steps[1]._id, 'delay', { type: 'dynamic', dynamicKey: 'sendAt' }],
      [wf.steps[2]._id, 'digest', { type: 'timed', cron: '30 9 * * MON,FRI' }],
      [wf.steps[3]._id, 'push', { subject: 'Title {{name}}', body: 'Body' }],
    ]);
    // v1 templates name payload values at the top level: no issue for `{{name}}`.
    expect(v2.body.steps[0].issues.controls).toBeUndefined();
    // The v1 shape reads the stored controls back in v1 terms.
    expect(wf.steps[0].template).toMatchObject({ subject: 'Hello', actor: { type: 'system_custom', data: 'https://example.com/a.png' } });
    expect(wf.steps[1].metadata).toEqual({ type: 'scheduled', delayPath: 'sendAt' });
    expect(wf.steps[2].metadata).toEqual({ type: 'timed', timed: { cronExpression: '30 9 * * MON,FRI' } });
    expect(wf.steps[3].template).toMatchObject({ type: 'push', title: 'Title {{name}}', content: 'Body' });
    expect(wf.triggers[0].variables).toEqual([{ name: 'name' }]);
  });

  it('refuses to sync a v1 workflow to another environment of the organization (origin svc-cloud-v1)', async () => {
    const org = await createTestOrg(api.url);
    const client = new Novu(org.dev.apiKey, { backendUrl: api.url });
    const group = (await client.notificationGroups.get()).data.data[0]._id;
    const wf = (await client.notificationTemplates.create({ name: 'To sync', notificationGroupId: group, steps: [inApp('Hi')] } as never))
      .data.data;
    const sync = await org.dev.client.put(`/v2/workflows/${wf._id}/sync`, { targetEnvironmentId: org.prod.id });
    expect(sync.status).toBe(400);
    expect(sync.body.message).toBe("Cannot sync workflow: origin 'svc-cloud-v1' is not allowed (must be one of: svc-cloud)");
  });

  it('shows a workflow made through v2 in the v1 shape', async () => {
    const workflowId = `v2-${rand()}`;
    const made = await env.client.post('/v2/workflows', {
      name: 'Made in v2',
      workflowId,
      steps: [{ name: 'Mail', type: 'email', controlValues: { subject: 'Hi {{payload.who}}', body: '<p>Hello</p>' } }],
    });
    expect(made.status).toBe(201);
    const v1 = (await novu.notificationTemplates.getOne(workflowId)).data.data;
    expect(v1).toMatchObject({
      _id: made.body._id,
      origin: 'svc-cloud',
      _notificationGroupId: groupId,
      triggers: [{ identifier: workflowId, variables: [{ name: 'who' }] }],
      steps: [
        {
          _id: made.body.steps[0]._id,
          template: { type: 'email', subject: 'Hi {{payload.who}}', content: '<p>Hello</p>', contentType: 'customHtml' },
        },
      ],
    });
  });

  it('gives a second workflow of the same name a trigger identifier of its own', async () => {
    const name = `Twin ${rand()}`;
    const first = (await novu.notificationTemplates.create({ name, notificationGroupId: groupId, steps: [inApp('a')] } as never)).data.data;
    const second = (await novu.notificationTemplates.create({ name, notificationGroupId: groupId, steps: [inApp('b')] } as never)).data
      .data;
    const slug = name.toLowerCase().replace(/ /g, '-');
    expect(first.triggers[0].identifier).toBe(slug);
    expect(second.triggers[0].identifier).toMatch(new RegExp(`^${slug}-[0-9a-f]+$`));
  });

  it('changes the trigger identifier with `identifier` (409 when another workflow has it)', async () => {
    const a = (
      await novu.notificationTemplates.create({
        name: `Rename ${rand()}`,
        notificationGroupId: groupId,
        active: true,
        steps: [inApp('a')],
      } as never)
    ).data.data;
    const b = (
      await novu.notificationTemplates.create({ name: `Other ${rand()}`, notificationGroupId: groupId, steps: [inApp('b')] } as never)
    ).data.data;
    const identifier = `renamed-${rand()}`;
    const renamed = await env.client.put(`/v1/notification-templates/${a._id}`, { identifier });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ _id: a._id, triggers: [{ identifier }], steps: [{ _id: a.steps[0]._id }] });
    expect((await env.client.get(`/v1/notification-templates/${a.triggers[0].identifier}`)).status).toBe(404);
    expect((await env.client.get(`/v1/notification-templates/${identifier}`)).body.data._id).toBe(a._id);
    const subscriberId = `sub-${rand()}`;
    expect(triggered(await novu.trigger(identifier, { to: { subscriberId }, payload: {} })).status).toBe('processed');

    const taken = await env.client.put(`/v1/notification-templates/${b._id}`, { identifier });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(`Workflow with identifier ${identifier} already exists`);
    expect((await env.client.get(`/v1/notification-templates/${b._id}`)).body.data.triggers[0].identifier).toBe(b.triggers[0].identifier);
  });
});

describe('a v1 workflow delivers as authored', () => {
  it('runs step filters, skips inactive steps and renders payload values at the top level', async () => {
    const plan = (value: string) => [
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'payload', field: 'plan', operator: 'EQUAL', value }] },
    ];
    const wf = (
      await novu.notificationTemplates.create({
        name: `Deliver ${rand()}`,
        notificationGroupId: groupId,
        active: true,
        steps: [
          {
            name: 'Pro inbox',
            filters: plan('pro'),
            template: { type: 'in_app', content: 'Order {{orderId}} for {{subscriber.firstName}}' },
          },
          { name: 'Enterprise text', filters: plan('enterprise'), template: { type: 'sms', content: 'Order {{orderId}}' } },
          { name: 'Switched off', active: false, template: { type: 'in_app', content: 'never' } },
          { name: 'Negated', filters: [{ ...plan('pro')[0], isNegated: true }], template: { type: 'in_app', content: 'not pro' } },
        ],
      } as never)
    ).data.data;
    const subscriberId = `sub-${rand()}`;
    const answer = triggered(
      await novu.trigger(wf.triggers[0].identifier, {
        to: { subscriberId, firstName: 'Ada', phone: '+15555550100' },
        payload: { orderId: 42, plan: 'pro' },
      }),
    );
    expect(answer).toMatchObject({ acknowledged: true, status: 'processed' });
    const [item] = await settled(env.client, answer.transactionId);
    const jobs = Object.fromEntries(item.jobs.map((job: any) => [job.step.name, job]));
    expect(Object.keys(jobs)).toEqual(['Pro inbox', 'Enterprise text', 'Negated']);
    expect(jobs['Pro inbox'].status).toBe('completed');
    for (const name of ['Enterprise text', 'Negated']) {
      expect(jobs[name].status).toBe('canceled');
      expect(jobs[name].executionDetails.map((d: any) => d.detail)).toContain('Step was skipped based on steps conditions');
    }
    expect(jobs['Enterprise text'].step.filters).toEqual(plan('enterprise'));
    const messages = await messagesOf(env.client, subscriberId);
    expect(messages.map((m) => m.content)).toEqual(['Order 42 for Ada']);
  });

  it('stops after a failed step only when that step says shouldStopOnFail', async () => {
    const org = await createTestOrg(api.url);
    const client = new Novu(org.dev.apiKey, { backendUrl: api.url });
    // Without an active sms integration an sms step fails.
    const integrations = (await org.dev.client.get('/v1/integrations')).body as any[];
    const sms = integrations.find((i) => i._environmentId === org.dev.id && i.channel === 'sms');
    expect((await org.dev.client.put(`/v1/integrations/${sms._id}`, { active: false })).status).toBe(200);
    const group = (await client.notificationGroups.get()).data.data[0]._id;
    const make = async (shouldStopOnFail: boolean) =>
      (
        await client.notificationTemplates.create({
          name: `Stop ${shouldStopOnFail} ${rand()}`,
          notificationGroupId: group,
          active: true,
          steps: [{ shouldStopOnFail, template: { type: 'sms', content: 'Hi' } }, inApp('After the text')],
        } as never)
      ).data.data;
    const statuses = async (wf: any) => {
      const subscriberId = `sub-${rand()}`;
      const res = triggered(await client.trigger(wf.triggers[0].identifier, { to: { subscriberId, phone: '+15555550100' }, payload: {} }));
      const [item] = await settled(org.dev.client, res.transactionId);
      return item.jobs.map((job: any) => [job.type, job.status]);
    };
    expect(await statuses(await make(true))).toEqual([
      ['sms', 'failed'],
      ['in_app', 'canceled'],
    ]);
    expect(await statuses(await make(false))).toEqual([
      ['sms', 'failed'],
      ['in_app', 'completed'],
    ]);
  });
});

describe('v1 routes over HTTP: envelope, status codes, errors', () => {
  it('wraps single workflows in {data} and sends pages as they are', async () => {
    const made = await env.client.post('/v1/notification-templates', {
      name: `Raw ${rand()}`,
      notificationGroupId: groupId,
      steps: [inApp('x')],
    });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(['data']);
    const page = await env.client.get('/v1/notification-templates?page=0&limit=1');
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['data', 'page', 'pageSize', 'totalCount']);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0]._id).toBe(made.body.data._id);
    const second = await env.client.get(`/v1/notification-templates?page=1&limit=1&query=${encodeURIComponent(made.body.data.name)}`);
    expect(second.body).toMatchObject({ page: 1, totalCount: 1, data: [] });
  });

  it('documents that envelope in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as any;
    const schemaOf = (path: string, method: string) =>
      doc.paths[path][method].responses[method === 'post' ? '201' : '200'].content['application/json'].schema;
    expect(Object.keys(schemaOf('/v1/notification-templates', 'get').properties).sort()).toEqual([
      'data',
      'page',
      'pageSize',
      'totalCount',
    ]);
    for (const [path, method] of [
      ['/v1/notification-templates', 'post'],
      ['/v1/notification-templates/{templateId}', 'get'],
      ['/v1/notification-groups', 'get'],
    ]) {
      expect(schemaOf(path!, method!), `${method} ${path}`).toMatchObject({ type: 'object', required: ['data'] });
    }
  });

  it('answers 422 for bad input, naming the field, and writes nothing', async () => {
    const before = (await env.client.get('/v1/notification-templates?limit=100')).body.totalCount;
    const refused: [Record<string, unknown>, string][] = [
      [{ name: 'No group', steps: [] }, 'notificationGroupId'],
      [{ name: 'No steps', notificationGroupId: groupId }, 'steps'],
      [{ name: 'No template', notificationGroupId: groupId, steps: [{ name: 'x' }] }, 'steps.0.template'],
      [
        { name: 'Bad type', notificationGroupId: groupId, steps: [{ template: { type: 'trigger', content: '' } }] },
        'steps.0.template.type',
      ],
      [{ name: 'Variants', notificationGroupId: groupId, steps: [{ ...inApp('x'), variants: [inApp('y')] }] }, 'steps.0.variants'],
      [{ name: 'Handlebars', notificationGroupId: groupId, steps: [inApp('{{#if ok}}yes{{/if}}')] }, 'steps.0.template.content'],
      [
        {
          name: 'Blocks in-app',
          notificationGroupId: groupId,
          steps: [{ template: { type: 'in_app', content: [{ type: 'text', content: 'x' }] } }],
        },
        'steps.0.template.content',
      ],
      [
        {
          name: 'Webhook filter',
          notificationGroupId: groupId,
          steps: [{ ...inApp('x'), filters: [{ value: 'AND', children: [{ on: 'webhook', field: 'a', value: 'b', operator: 'EQUAL' }] }] }],
        },
        'steps.0.filters.0.children.0.on',
      ],
      [
        {
          name: 'Weekday digest',
          notificationGroupId: groupId,
          steps: [
            {
              template: { type: 'digest' },
              metadata: {
                type: 'timed',
                unit: 'months',
                timed: { atTime: '09:00', monthlyType: 'on', ordinal: '1', ordinalValue: 'weekday' },
              },
            },
          ],
        },
        'steps.0.metadata.timed.ordinalValue',
      ],
      [
        {
          name: 'Two weeks',
          notificationGroupId: groupId,
          steps: [
            {
              template: { type: 'digest' },
              metadata: { type: 'timed', unit: 'weeks', amount: 2, timed: { atTime: '09:00', weekDays: ['monday'] } },
            },
          ],
        },
        'steps.0.metadata.amount',
      ],
      [
        { name: 'No path', notificationGroupId: groupId, steps: [{ template: { type: 'delay' }, metadata: { type: 'scheduled' } }] },
        'steps.0.metadata.delayPath',
      ],
      [
        {
          name: 'Bad amount',
          notificationGroupId: groupId,
          steps: [{ template: { type: 'digest' }, metadata: { amount: 0, unit: 'minutes' } }],
        },
        'steps.0.metadata.amount',
      ],
      [
        {
          name: 'Bad url',
          notificationGroupId: groupId,
          steps: [{ template: { type: 'in_app', content: 'x', cta: { data: { url: 'not a url' } } } }],
        },
        'steps.0.template.cta.data',
      ],
    ];
    for (const [body, field] of refused) {
      const res = await env.client.post('/v1/notification-templates', body);
      expect(res.status, `${String(body.name)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toMatchObject({
        statusCode: 422,
        message: 'Validation Error',
        error: 'Unprocessable Entity',
        path: '/v1/notification-templates',
      });
      expect(Object.keys(res.body.errors), String(body.name)).toContain(field);
    }
    const status = await env.client.put(`/v1/notification-templates/${'0'.repeat(24)}/status`, { active: 'yes' });
    expect(status.status).toBe(422);
    expect((await env.client.get('/v1/notification-templates?limit=101')).status).toBe(422);
    expect((await env.client.get('/v1/notification-templates?page=-1')).status).toBe(422);
    expect((await env.client.get('/v1/notification-templates?limit=100')).body.totalCount).toBe(before);
  });

  it('answers 404 for unknown ids and groups, 400 for an update without changes, 401 without a key', async () => {
    const unknown = '0'.repeat(24);
    const notFound = await env.client.get(`/v1/notification-templates/${unknown}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: `Template with id ${unknown} not found` });
    expect((await env.client.put(`/v1/notification-templates/${unknown}`, { name: 'x' })).status).toBe(404);
    expect((await env.client.put(`/v1/notification-templates/${unknown}/status`, { active: true })).status).toBe(404);
    expect((await env.client.delete(`/v1/notification-templates/${unknown}`)).status).toBe(404);
    expect((await env.client.delete('/v1/notification-templates/not-an-id')).status).toBe(404);

    const wrongGroup = await env.client.post('/v1/notification-templates', {
      name: 'Wrong group',
      notificationGroupId: unknown,
      steps: [],
    });
    expect(wrongGroup.status).toBe(404);
    expect(wrongGroup.body.message).toBe(`Notification group with id ${unknown} not found`);

    const wf = (await env.client.post('/v1/notification-templates', { name: `Empty ${rand()}`, notificationGroupId: groupId, steps: [] }))
      .body.data;
    const nothing = await env.client.put(`/v1/notification-templates/${wf._id}`, { unknownField: 1 });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('No properties found for update');
    expect((await env.client.put(`/v1/notification-templates/${wf._id}`, { notificationGroupId: unknown })).status).toBe(404);
    expect((await env.client.put(`/v1/notification-templates/${wf._id}`, { notificationGroupId: groupId })).status).toBe(200);

    const anonymous = await fetch(`${api.url}/v1/notification-templates`);
    expect(anonymous.status).toBe(401);
  });
});
