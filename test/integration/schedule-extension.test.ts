import { describe, expect, it, vi } from 'vitest';
import { createWorkflow, rand, settledOne, trigger } from '../support/pipeline.ts';
import { mailEnvironment } from '../support/smtp-integration.ts';

// extendToSchedule through the API, the queues and the pipeline: a delay whose wait ends outside
// the subscriber's delivery schedule waits for the schedule's next window, then the email step
// (which the schedule gates too) goes out. Without the flag, or in a critical workflow, the wait
// ends as before. Schedules are set per minute, so the window of the extended case opens at the
// first whole minute at least 15 s away (there is no test clock: the pipeline reads the real
// one): that test waits 15 to 75 s, polling, while the other cases run beside it.

const TIMEZONE = 'Asia/Kolkata';
const LONG_WAIT = { timeout: 150_000, interval: 1_000 };

const mailEnv = mailEnvironment();

/** The subscriber's wall clock at an instant: its weekday and 12-hour time, as schedules write them. */
function wallClock(at: Date): { day: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: TIMEZONE,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { day: get('weekday').toLowerCase(), time: `${get('hour')}:${get('minute')} ${get('dayPeriod').toUpperCase()}` };
}

/** A subscriber in TIMEZONE whose one delivery window opens at `opens` (a whole minute) for two hours. */
async function subscriberWithWindow(opens: Date): Promise<string> {
  const subscriberId = `sub-${rand()}`;
  const created = await mailEnv.client.post('/v1/subscribers', { subscriberId, email: `${subscriberId}@example.test`, timezone: TIMEZONE });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const start = wallClock(opens);
  const end = wallClock(new Date(opens.getTime() + 2 * 3_600_000));
  // The API takes a range within one day (start before end): two hours that cross the
  // subscriber's midnight are the evening of one day and the small hours of the next.
  const ranges: [string, { start: string; end: string }][] =
    end.day === start.day
      ? [[start.day, { start: start.time, end: end.time }]]
      : [
          [start.day, { start: start.time, end: '11:59 PM' }],
          [end.day, { start: '12:00 AM', end: end.time }],
        ];
  const weeklySchedule = Object.fromEntries(
    ranges.filter(([, hours]) => hours.start !== hours.end).map(([day, hours]) => [day, { isEnabled: true, hours: [hours] }]),
  );
  const schedule = { isEnabled: true, weeklySchedule };
  const res = await mailEnv.client.patch(`/v2/subscribers/${subscriberId}/preferences`, { schedule });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return subscriberId;
}

/** The transaction's one notification as it is now. */
async function settledOrNot(transactionId: string): Promise<any> {
  const res = await mailEnv.client.get(`/v1/notifications?transactionId=${transactionId}`);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

const wholeMinute = (ms: number) => new Date(Math.ceil(ms / 60_000) * 60_000);
const details = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);
const mailTo = (subscriberId: string) => mailEnv.smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));

const steps = (delay: Record<string, unknown>) => [
  { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'seconds', ...delay } },
  { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>' } },
];

// Each case has its own workflows and subscribers: they run at once, and so share the consumers
// (90 s each, where one alone needs seconds).
describe.concurrent('extendToSchedule', { timeout: 90_000 }, () => {
  it('extends a delay and a digest that end outside the schedule to the next window, and counts it in the activity feed', async () => {
    const delayWorkflow = await createWorkflow(mailEnv.client, steps({ extendToSchedule: true }));
    const digestWorkflow = await createWorkflow(mailEnv.client, [
      { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { amount: 1, unit: 'seconds', extendToSchedule: true } },
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: { subject: '{{steps.collect.eventCount}} updates', body: '<p>Hi</p>' },
      },
    ]);
    // The window opens at least 10 s after the one-second waits end, time for the second digest
    // event to join (Kolkata is on whole minutes of UTC).
    const opens = wholeMinute(Date.now() + 15_000);
    const [delayed, digested] = await Promise.all([subscriberWithWindow(opens), subscriberWithWindow(opens)]);
    const delayTx = await trigger(mailEnv.client, delayWorkflow, delayed);
    const digestTx = await trigger(mailEnv.client, digestWorkflow, digested, { n: 1 });

    // While the digest waits for the window, a later event still joins it.
    await vi.waitFor(async () => {
      const [collect] = (await settledOrNot(digestTx)).jobs;
      expect(collect.scheduleExtensionsCount).toBe(1);
    }, LONG_WAIT);
    const joinedTx = await trigger(mailEnv.client, digestWorkflow, digested, { n: 2 });

    const [delayItem, digestItem, joinedItem] = await vi.waitFor(
      () => Promise.all([settledOne(mailEnv.client, delayTx), settledOne(mailEnv.client, digestTx), settledOne(mailEnv.client, joinedTx)]),
      LONG_WAIT,
    );
    for (const item of [delayItem, digestItem]) {
      const [wait, mail] = item.jobs;
      expect(wait).toMatchObject({ status: 'completed', scheduleExtensionsCount: 1 });
      const extended = wait.executionDetails.find(
        (d: any) => d.detail === 'Step was extended to the next available time in the subscriber schedule',
      );
      expect(extended.status).toBe('Pending');
      expect(JSON.parse(extended.raw)).toMatchObject({
        nextAvailableTime: opens.toISOString(),
        timezone: TIMEZONE,
        scheduleExtensionsCount: 1,
        maxScheduleExtensions: 3,
      });
      expect(mail.status).toBe('completed');
      const sent = mail.executionDetails.find((d: any) => d.detail === 'Message sent');
      expect(Date.parse(sent.createdAt)).toBeGreaterThanOrEqual(opens.getTime());
    }
    expect(joinedItem.jobs[0].status).toBe('merged');
    expect(mailTo(delayed)?.mail.subject).toBe('Hello');
    expect(mailTo(digested)?.mail.subject).toBe('2 updates');
  }, 180_000);

  it('without extendToSchedule, the delay ends on time and the schedule skips the email', async () => {
    const subscriberId = await subscriberWithWindow(wholeMinute(Date.now() + 3 * 3_600_000));
    const wf = await createWorkflow(mailEnv.client, steps({ extendToSchedule: false }));
    const item = await settledOne(mailEnv.client, await trigger(mailEnv.client, wf, subscriberId));
    const [wait, mail] = item.jobs;
    expect(wait.status).toBe('completed');
    expect(wait.scheduleExtensionsCount).toBeUndefined();
    expect(mail.status).toBe('canceled');
    expect(details(mail)).toContain("The step was skipped as it fell outside the subscriber's schedule");
    expect(mailTo(subscriberId)).toBeUndefined();
  });

  it('a critical workflow is not extended: its delay ends on time and its email goes out', async () => {
    const subscriberId = await subscriberWithWindow(wholeMinute(Date.now() + 3 * 3_600_000));
    const wf = await createWorkflow(mailEnv.client, steps({ extendToSchedule: true }), {
      preferences: { user: { all: { readOnly: true } } },
    });
    const item = await settledOne(mailEnv.client, await trigger(mailEnv.client, wf, subscriberId));
    const [wait, mail] = item.jobs;
    expect(wait.status).toBe('completed');
    expect(wait.scheduleExtensionsCount).toBeUndefined();
    expect(details(wait)).not.toContain('Step was extended to the next available time in the subscriber schedule');
    expect(mail.status).toBe('completed');
    expect(mailTo(subscriberId)).toBeDefined();
  });

  it('shows the control in the step schema and keeps it', async () => {
    const wf = await createWorkflow(mailEnv.client, steps({ extendToSchedule: true }));
    const res = await mailEnv.client.get(`/v2/workflows/${wf}`);
    const wait = res.body.steps[0];
    expect(wait.controls.values.extendToSchedule).toBe(true);
    expect(wait.controls.dataSchema.properties.extendToSchedule).toEqual({ type: 'boolean' });
    expect(wait.controls.uiSchema.properties.extendToSchedule).toEqual({ component: 'EXTEND_TO_SCHEDULE', placeholder: false });
    const bad = await mailEnv.client.post('/v2/workflows', {
      name: `wf-${rand()}`,
      workflowId: `wf-${rand()}`,
      steps: steps({ extendToSchedule: 'yes' }),
    });
    expect(bad.status).toBe(422);
  });
});
