import type { Subscriber } from '#lib/subscribers/model.ts';
import type { Bench } from './harness.ts';
import { expectStatus, measureEndpoints, type Cost, type EndpointCase, type EndpointResult, type WorkflowRef } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { log, SIZES } from './settings.ts';
import { n, table } from './table.ts';

// Sections 4 and 7: the ten endpoints of the interface, each called SIZES.calls times one after
// another with the pipeline paused (handler time), and counted on calls of their own (DynamoDB
// requests and capacity per call), in the environment the whole run seeded.

export async function endpointsSection(
  bench: Bench,
  dev: BenchEnv,
  prod: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
): Promise<EndpointResult[]> {
  log('the ten endpoints: requests per call and latency');
  const devCall = bench.api(dev.apiKey);
  const integrations = await expectStatus(devCall('GET', '/v1/integrations'), 200, 'integrations');
  const inApp = (integrations.body as { _id: string; channel: string; _environmentId: string }[]).find(
    (i) => i.channel === 'in_app' && i._environmentId === dev.id,
  )!;
  await expectStatus(
    devCall('POST', '/v1/integrations', { providerId: 'discord', channel: 'chat', active: true }),
    201,
    'discord integration',
  );
  const inbox = await expectStatus(devCall('GET', '/v1/messages?subscriberId=sub-5&limit=10'), 200, 'messages');
  const messageIds = (inbox.body as { data: { _id: string }[] }).data.map((m) => m._id);
  const ids = subscribers.slice(200, 300).map((s) => s.subscriberId);
  const cases: EndpointCase[] = [
    {
      operationId: 'listIntegrations',
      route: 'GET /v1/integrations',
      status: 200,
      calls: SIZES.calls,
      call: () => devCall('GET', '/v1/integrations'),
    },
    {
      operationId: 'updateIntegration',
      route: 'PUT /v1/integrations/{id}',
      status: 200,
      calls: SIZES.calls,
      call: (i) => devCall('PUT', `/v1/integrations/${inApp._id}`, { name: `In-App ${i}` }),
    },
    {
      operationId: 'updateSubscriberCredentials',
      route: 'PUT /v1/subscribers/{id}/credentials',
      status: 200,
      calls: SIZES.calls,
      call: (i) =>
        devCall('PUT', '/v1/subscribers/sub-1/credentials', {
          providerId: 'discord',
          credentials: { webhookUrl: `https://discord.example/hook/${i}` },
        }),
    },
    {
      operationId: 'patchSubscriber',
      route: 'PATCH /v2/subscribers/{id}',
      status: 200,
      calls: SIZES.calls,
      call: (i) => devCall('PATCH', '/v2/subscribers/sub-2', { firstName: `Ada ${i}` }),
    },
    {
      operationId: 'listSubscriberSubscriptions',
      route: 'GET /v2/subscribers/{id}/subscriptions',
      status: 200,
      calls: SIZES.calls,
      call: () => devCall('GET', '/v2/subscribers/sub-0/subscriptions?limit=10'),
    },
    {
      operationId: 'markMessagesAs',
      route: 'POST /v1/subscribers/{id}/messages/mark-as',
      status: 201,
      calls: SIZES.calls,
      call: (i) =>
        devCall('POST', '/v1/subscribers/sub-5/messages/mark-as', { messageId: messageIds, markAs: i % 2 === 0 ? 'read' : 'unread' }),
    },
    {
      operationId: 'getSubscriberPreferences',
      route: 'GET /v2/subscribers/{id}/preferences',
      status: 200,
      calls: SIZES.calls,
      call: () => devCall('GET', '/v2/subscribers/sub-3/preferences'),
    },
    {
      operationId: 'syncWorkflow',
      route: 'PUT /v2/workflows/{id}/sync',
      status: 200,
      calls: SIZES.calls,
      call: () => devCall('PUT', `/v2/workflows/${workflow.workflowId}/sync`, { targetEnvironmentId: prod.id }),
    },
    {
      operationId: 'triggerBulk',
      route: 'POST /v1/events/trigger/bulk (100 events)',
      status: 201,
      calls: SIZES.bulkCalls,
      call: (i) =>
        devCall('POST', '/v1/events/trigger/bulk', {
          events: ids.map((to, j) => ({ name: workflow.workflowId, to, payload: { author: 'Bob', comment: `latency ${i}-${j}` } })),
        }),
    },
    {
      operationId: 'listNotifications',
      route: 'GET /v1/notifications',
      status: 200,
      calls: SIZES.calls,
      call: () => devCall('GET', '/v1/notifications?limit=10'),
    },
  ];
  return measureEndpoints(bench, cases);
}

/** Table 4: requests and capacity per delivery, per digest and per call of each endpoint. */
export function printRequests(perDelivery: Cost, perDigest: Cost, endpoints: readonly EndpointResult[]): void {
  const ops = (c: Cost) =>
    Object.entries(c.byOperation)
      .map(([k, v]) => `${k} ${n(v, 2)}`)
      .join(', ');
  const row = (name: string, c: Cost) => [name, c.requests, c.writeRequests, c.readUnits, c.writeUnits, ops(c)];
  table(
    '4. DynamoDB per operation (counted by the SDK middleware)',
    ['operation', 'requests', 'writes', 'RCU', 'WCU', 'by operation'],
    [
      row('one-step in-app delivery', perDelivery),
      row('digest of 10 events (+ in-app)', perDigest),
      ...endpoints.map((x) => row(x.route, x.perCall)),
    ],
  );
}

/** Table 7: handler time per endpoint. */
export function printLatency(endpoints: readonly EndpointResult[]): void {
  table(
    '7. Latency per endpoint (handler time, realistic data)',
    ['endpoint', 'calls', 'p50 ms', 'p99 ms'],
    endpoints.map((x) => [x.route, x.calls, x.p50Ms, x.p99Ms]),
  );
}
