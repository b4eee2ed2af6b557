import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBridgeWakeScheduler } from '#lib/queue/eventbridge-scheduler.ts';
import { splitLongWaits, wakeOf } from '#lib/queue/wake-scheduler.ts';

// The AWS side of long waits through the real Scheduler client, against a local server that
// answers as EventBridge Scheduler's API does (POST /schedules/{Name}; 409 ConflictException
// for a name already taken): what a schedule is made of, and that an existing one is no error.

interface Received { path: string; body: any }
const received: Received[] = [];
const taken = new Set<string>();
let server: Server;

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = decodeURIComponent(req.url ?? '');
    received.push({ path, body });
    const name = path.split('/')[2]!.split('?')[0]!;
    if (taken.has(name)) {
      res.writeHead(409, { 'content-type': 'application/json', 'x-amzn-errortype': 'ConflictException' });
      res.end(JSON.stringify({ Message: `Schedule ${name} already exists.` }));
      return;
    }
    taken.add(name);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ScheduleArn: `arn:aws:scheduler:us-east-1:123456789012:schedule/${body.GroupName}/${name}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SCHEDULER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    JOBS_QUEUE_ARN: 'arn:aws:sqs:us-east-1:123456789012:notify-test-jobs',
    WAKE_SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const body = { kind: 'job', organizationId: 'o', environmentId: 'e', transactionId: 't', subscriberId: 's', jobIndex: 1 };

describe('EventBridge Scheduler wakes', () => {
  it('makes one one-time schedule in the group, sending the job message to the jobs queue, deleted after it fires', async () => {
    const dueAt = new Date('2026-12-27T10:15:30.250Z');
    const wake = wakeOf('jobs', { body, dueAt });
    expect(wake.name).toMatch(/^jobs-[0-9a-f]{40}-1798366531$/);
    expect(wake.name.length).toBeLessThanOrEqual(64);
    await new EventBridgeWakeScheduler('notify-test-waits').schedule(wake);
    expect(received.at(-1)).toEqual({
      path: `/schedules/${wake.name}`,
      body: {
        GroupName: 'notify-test-waits',
        ScheduleExpression: 'at(2026-12-27T10:15:31)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:notify-test-jobs', RoleArn: 'arn:aws:iam::123456789012:role/scheduler', Input: JSON.stringify(body) },
        ClientToken: expect.any(String),
      },
    });
  });

  it('takes a schedule of the same name (the same job and due second) as already scheduled', async () => {
    const wake = wakeOf('jobs', { body, dueAt: new Date('2026-12-27T10:15:31Z') });
    const count = received.length;
    await expect(new EventBridgeWakeScheduler('notify-test-waits').schedule(wake)).resolves.toBeUndefined();
    expect(received.length).toBe(count + 1);
    expect(received.at(-1)!.path).toBe(`/schedules/${wake.name}`);
  });

  it('schedules only waits longer than SQS holds, and only for the queues that take wakes', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    const soon = { body, dueAt: new Date(now + 900_000) };
    const later = { body, dueAt: new Date(now + 900_001) };
    expect(splitLongWaits('jobs', [soon, later, { body }], now)).toEqual({ later: [later], now: [soon, { body }] });
    expect(splitLongWaits('webhooks', [later], now)).toEqual({ later: [], now: [later] });
  });
});
