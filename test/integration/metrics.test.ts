import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { readCapture } from '../support/log-capture.ts';
import { createWorkflow, rand, settledOne, triggerWith, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// The service's metrics (issue 22, item 4) as CloudWatch would read them: the Embedded Metric
// Format lines the functions write to their log. A trigger is accepted by the API (this worker),
// the email is delivered or refused by a provider's API (a local server) in the jobs consumer
// (the global setup's process); both write their lines at the end of the invocation, and the
// run's log capture keeps them. The lines of this test's environment are told apart from those
// of other files by the environmentId they carry (a property, never a dimension).

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

/** Every EMF line of the run so far that names this environment. */
function emfLinesOf(environmentId: string): EmfLine[] {
  const lines = [...readCapture(inject('logCapture').dir).values()].flatMap((text) => text.split('\n'));
  return lines
    .filter((line) => line.startsWith('{"_aws":'))
    .map((line) => JSON.parse(line) as EmfLine)
    .filter((line) => line.environmentId === environmentId);
}

const definitions = (line: EmfLine) => line._aws.CloudWatchMetrics[0]!;
const values = (line: EmfLine, name: string): number[] => {
  const value = line[name];
  return value === undefined ? [] : Array.isArray(value) ? (value as number[]) : [value as number];
};
const sum = (lines: EmfLine[], name: string) => lines.flatMap((l) => values(l, name)).reduce((a, b) => a + b, 0);

let api: LocalApi;
let fake: FakeApi;
let env: TestEnv;
beforeAll(async () => {
  api = await startTestApi();
  fake = await startFakeApi();
  env = (await createTestOrg(api.url)).dev;
});
afterAll(async () => {
  await api.close();
  await fake.close();
});

describe('metrics (EMF lines)', () => {
  it('count accepted triggers, a delivery and a failure per channel and provider, and the delivery latency', async () => {
    const integration = await env.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: `sg-${rand()}`,
      active: true,
      credentials: { apiKey: 'SG.metrics', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
    });
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    expect((await env.client.post(`/v1/integrations/${integration.body.data._id}/set-primary`, {})).status).toBeLessThan(300);
    const workflow = `wf-${rand()}`;
    const created = await env.client.post('/v2/workflows', {
      name: workflow,
      workflowId: workflow,
      active: true,
      steps: [{ name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    fake.reply = (request) =>
      String(request.json?.personalizations?.[0]?.to?.[0]?.email).startsWith('refused')
        ? { status: 403, body: { errors: [{ message: 'forbidden' }] } }
        : { status: 202, headers: { 'x-message-id': `sg-${rand()}` }, body: '' };

    const before = Date.now();
    const okId = `ok-${rand()}`;
    const refusedId = `refused-${rand()}`;
    const ok = await settledOne(
      env.client,
      await triggerWith(env.client, { name: workflow, to: { subscriberId: okId, email: `${okId}@example.test` } }),
    );
    const refused = await settledOne(
      env.client,
      await triggerWith(env.client, { name: workflow, to: { subscriberId: refusedId, email: `${refusedId}@example.test` } }),
    );
    const after = Date.now();
    expect([ok.jobs[0].status, refused.jobs[0].status]).toEqual(['completed', 'failed']);

    // Each invocation writes its lines when it ends, just after the job's decision is stored.
    const lines = await vi.waitFor(() => {
      const found = emfLinesOf(env.id);
      expect(sum(found, 'TriggersAccepted')).toBe(2);
      expect(sum(found, 'Deliveries')).toBe(1);
      expect(sum(found, 'DeliveryFailures')).toBe(1);
      return found;
    }, WAIT);

    for (const line of lines) {
      expect(definitions(line).Namespace).toBe('Notify');
      expect(line).toMatchObject({ service: 'notify', stage: 'local', organizationId: env.scope.organizationId, environmentId: env.id });
    }
    // Triggers: the stage's count alone, no channel or provider.
    const triggerLines = lines.filter((l) => 'TriggersAccepted' in l);
    for (const line of triggerLines) {
      expect(definitions(line).Dimensions).toEqual([['service', 'stage']]);
      expect(definitions(line).Metrics).toEqual([{ Name: 'TriggersAccepted', Unit: 'Count' }]);
    }
    // Deliveries: per channel and provider, and again for the stage's totals (what the alarm reads).
    const deliveryLines = lines.filter((l) => 'Deliveries' in l || 'DeliveryFailures' in l);
    for (const line of deliveryLines) {
      expect(line).toMatchObject({ channel: 'email', provider: 'sendgrid' });
      expect(definitions(line).Dimensions).toEqual([
        ['service', 'stage', 'channel', 'provider'],
        ['service', 'stage'],
      ]);
    }
    const delivered = deliveryLines.find((l) => 'Deliveries' in l)!;
    expect(definitions(delivered).Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'Deliveries', Unit: 'Count' },
        { Name: 'TriggerToDeliveryLatency', Unit: 'Milliseconds' },
      ]),
    );
    // One latency, the delivered email's (a failure has none), from the trigger's acceptance to
    // SendGrid's 202: within the time the test waited.
    const latencies = lines.flatMap((l) => values(l, 'TriggerToDeliveryLatency'));
    expect(latencies).toHaveLength(1);
    expect(latencies[0]).toBeGreaterThanOrEqual(0);
    expect(latencies[0]).toBeLessThanOrEqual(after - before);
  });

  it('count an in-app delivery, made by the events consumer, under its channel and the provider its job names', async () => {
    const other = (await createTestOrg(api.url)).dev;
    const workflow = await createWorkflow(other.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
    ]);
    const notification = await settledOne(other.client, await triggerWith(other.client, { name: workflow, to: `sub-${rand()}` }));
    expect(notification.jobs[0].status).toBe('completed');
    const lines = await vi.waitFor(() => {
      const found = emfLinesOf(other.id);
      expect(sum(found, 'Deliveries')).toBe(1);
      return found;
    }, WAIT);
    const delivered = lines.find((l) => 'Deliveries' in l)!;
    expect(delivered).toMatchObject({ channel: 'in_app', provider: notification.jobs[0].providerId, stage: 'local', service: 'notify' });
    expect(sum(lines, 'DeliveryFailures')).toBe(0);
    expect(lines.flatMap((l) => values(l, 'TriggerToDeliveryLatency'))).toHaveLength(1);
  });
});
