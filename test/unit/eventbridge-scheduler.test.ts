import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBridgeWakeScheduler } from '#lib/queue/eventbridge-scheduler.ts';
import { splitLongWaits, wakeOf } from '#lib/queue/wake-scheduler.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// The AWS side of long waits through the real Scheduler client, against a local server that
// answers as EventBridge Scheduler's API does (POST /schedules/{Name}; 409 ConflictException
// for a name already taken): what a schedule is made of, and that an existing one is no error.

const taken = new Set<string>();
let scheduler: FakeApi;
/** The requests the Scheduler API received: path and JSON body. */
const received = () => scheduler.requests.map(({ path, json }) => ({ path: decodeURIComponent(path), body: json ?? {} }));

beforeAll(async () => {
  scheduler = await startFakeApi();
  scheduler.reply = ({ path, json }) => {
    const name = decodeURIComponent(path).split('/')[2]!;
    if (taken.has(name))
      return { status: 409, headers: { 'x-amzn-errortype': 'ConflictException' }, body: { Message: `Schedule ${name} already exists.` } };
    taken.add(name);
    return { status: 200, body: { ScheduleArn: `arn:aws:scheduler:us-east-1:123456789012:schedule/${json.GroupName}/${name}` } };
  };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SCHEDULER: scheduler.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    JOBS_QUEUE_ARN: 'arn:aws:sqs:us-east-1:123456789012:notify-test-jobs',
    WAKE_SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
  });
});
afterAll(() => scheduler?.close());

const body = { kind: 'job', organizationId: 'o', environmentId: 'e', transactionId: 't', subscriberId: 's', jobIndex: 1 };

describe('EventBridge Scheduler wakes', () => {
  it('makes one one-time schedule in the group, sending the job message to the jobs queue, deleted after it fires', async () => {
    const dueAt = new Date('2026-12-27T10:15:30.250Z');
    const wake = wakeOf('jobs', { body, dueAt });
    expect(wake.name).toMatch(/^jobs-[0-9a-f]{40}-1798366531$/);
    expect(wake.name.length).toBeLessThanOrEqual(64);
    await new EventBridgeWakeScheduler('notify-test-waits').schedule(wake);
    expect(received().at(-1)).toEqual({
      path: `/schedules/${wake.name}`,
      body: {
        GroupName: 'notify-test-waits',
        ScheduleExpression: 'at(2026-12-27T10:15:31)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: 'arn:aws:sqs:us-east-1:123456789012:notify-test-jobs',
          RoleArn: 'arn:aws:iam::123456789012:role/scheduler',
          Input: JSON.stringify(body),
        },
        ClientToken: expect.any(String),
      },
    });
  });

  it('takes a schedule of the same name (the same job and due second) as already scheduled', async () => {
    const wake = wakeOf('jobs', { body, dueAt: new Date('2026-12-27T10:15:31Z') });
    const count = received().length;
    await expect(new EventBridgeWakeScheduler('notify-test-waits').schedule(wake)).resolves.toBeUndefined();
    expect(received().length).toBe(count + 1);
    expect(received().at(-1)!.path).toBe(`/schedules/${wake.name}`);
  });

  it('schedules only waits longer than SQS holds, and only for the queues that take wakes', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    const soon = { body, dueAt: new Date(now + 900_000) };
    const later = { body, dueAt: new Date(now + 900_001) };
    expect(splitLongWaits('jobs', [soon, later, { body }], now)).toEqual({ later: [later], now: [soon, { body }] });
    expect(splitLongWaits('webhooks', [later], now)).toEqual({ later: [], now: [later] });
  });
});
