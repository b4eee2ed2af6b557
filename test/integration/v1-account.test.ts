import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { newId } from '#lib/ids.ts';
import { createTestOrg, startTestApi, type TestOrg } from '../support/api.ts';
import { expectError, sdkError } from '../support/legacy-sdk.ts';
import { createWorkflow, settled, trigger } from '../support/pipeline.ts';

// What else an app written against `@novu/node` 2.x reads of its account: the active
// integrations (`integrations.getActive`), its own environment (`environments.getCurrent`) and a
// notification's execution details (`executionDetails.get`), through the SDK against the real
// handlers, plus status codes and error bodies over HTTP.

let api: LocalApi;
let org: TestOrg;
let novu: Novu;
beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  novu = new Novu(org.dev.apiKey, { backendUrl: api.url });
});
afterAll(() => api.close());

describe('integrations.getActive', () => {
  it('lists the active integrations of every environment of the organization, in the envelope', async () => {
    const inactive = await org.dev.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      name: 'Off',
      active: false,
    });
    expect(inactive.status).toBe(201);

    const res = await novu.integrations.getActive();
    expect(res.status).toBe(200);
    const active = res.data.data as { _id: string; _environmentId: string; providerId: string; active: boolean; credentials: unknown }[];
    // The starter integrations of both environments (in-app, demo email and sms), nothing inactive.
    const all = (await org.dev.client.get('/v1/integrations')).body as typeof active;
    expect(active.map((i) => i._id).sort()).toEqual(
      all
        .filter((i) => i.active)
        .map((i) => i._id)
        .sort(),
    );
    expect(active.map((i) => i._environmentId).sort()).toEqual([...Array(3).fill(org.dev.id), ...Array(3).fill(org.prod.id)].sort());
    expect(active.map((i) => i._id)).not.toContain(inactive.body._id);
    expect(active.every((i) => i.active)).toBe(true);
    // Each as the list shows it.
    for (const integration of active) expect(integration).toEqual(all.find((i) => i._id === integration._id));
  });
});

describe('environments.getCurrent', () => {
  it("answers the API key's own environment, without API keys", async () => {
    const res = await novu.environments.getCurrent();
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      data: {
        _id: org.dev.id,
        name: 'Development',
        _organizationId: org.id,
        identifier: org.dev.applicationIdentifier,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect(JSON.stringify(res.data)).not.toContain(org.dev.apiKey);
    const prod = await new Novu(org.prod.apiKey, { backendUrl: api.url }).environments.getCurrent();
    expect(prod.data.data).toMatchObject({ _id: org.prod.id, name: 'Production', identifier: org.prod.applicationIdentifier });
  });

  it('answers 401 without a valid key', async () => {
    expectError(await sdkError(new Novu('not-a-key', { backendUrl: api.url }).environments.getCurrent()), 401, 'Unauthorized');
  });
});

describe('executionDetails.get', () => {
  it("lists every execution detail of the notification's jobs, oldest first, as the activity feed shows them", async () => {
    const workflowId = await createWorkflow(org.dev.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello</p>' } },
    ]);
    const transactionId = await trigger(org.dev.client, workflowId, { subscriberId: 'ada', email: 'ada@example.com' });
    const [notification] = await settled(org.dev.client, transactionId);

    const res = await novu.executionDetails.get({ notificationId: notification._id, subscriberId: 'ada' });
    expect(res.status).toBe(200);
    const details = res.data.data as Record<string, unknown>[];
    const expected = notification.jobs.flatMap((job: any) =>
      job.executionDetails.map((d: any) => ({
        _id: d._id,
        _organizationId: org.id,
        _environmentId: org.dev.id,
        _jobId: job._id,
        _notificationId: notification._id,
        _notificationTemplateId: notification._templateId,
        _subscriberId: notification._subscriberId,
        transactionId,
        channel: job.type,
        detail: d.detail,
        source: d.source,
        status: d.status,
        isTest: d.isTest,
        isRetry: d.isRetry,
        createdAt: d.createdAt,
      })),
    );
    expect(details).toHaveLength(expected.length);
    expect(details).toEqual(expect.arrayContaining(expected.map((d: object) => expect.objectContaining(d))));
    const times = details.map((d) => d.createdAt as string);
    expect(times).toEqual([...times].sort());
    expect(details.map((d) => d.detail)).toEqual(expect.arrayContaining(['Message created', 'Message sent']));
    // Details of a sent message name it and its provider.
    expect(details.find((d) => d.channel === 'email' && d.detail === 'Message sent')).toMatchObject({
      _messageId: expect.any(String),
      providerId: 'svc-email',
    });

    // Another subscriber's notification has no details for this one; an unknown notification neither.
    const other = await org.dev.client.post('/v2/subscribers', { subscriberId: 'bob' });
    expect(other.status).toBe(201);
    expect((await novu.executionDetails.get({ notificationId: notification._id, subscriberId: 'bob' })).data).toEqual({ data: [] });
    expect((await novu.executionDetails.get({ notificationId: newId(), subscriberId: 'ada' })).data).toEqual({ data: [] });
    // Nor has the same notification through another environment's key.
    const prod = new Novu(org.prod.apiKey, { backendUrl: api.url });
    expectError(await sdkError(prod.executionDetails.get({ notificationId: notification._id, subscriberId: 'ada' })), 404, 'Not Found');
  });

  it('answers 404 for an unknown subscriber and 422 for a malformed or missing parameter', async () => {
    const missing = await sdkError(novu.executionDetails.get({ notificationId: newId(), subscriberId: 'ghost' }));
    expectError(missing, 404, 'Not Found');
    expect(missing.body.message).toBe('Subscriber not found for id ghost');

    const malformed = await org.dev.client.get('/v1/execution-details?notificationId=abc&subscriberId=ada');
    expectError(malformed, 422, 'Unprocessable Entity');
    expect(malformed.body.errors).toEqual({ notificationId: { messages: ['notificationId must be a mongodb id'], value: 'abc' } });
    const none = await org.dev.client.get('/v1/execution-details');
    expectError(none, 422, 'Unprocessable Entity');
    expect(Object.keys(none.body.errors).sort()).toEqual(['notificationId', 'subscriberId']);
  });
});
