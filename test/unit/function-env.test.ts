import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeclaredQueues } from '#infra/local/function-env.ts';
import { queues } from '#infra/queues.ts';
import { QUEUE_URL_ENV, sendMessages } from '#lib/queue/send.ts';

// The local runtime gives a handler the URLs of the queues its entry declares and no others, as
// the stack does in AWS: a route whose code reaches a queue it does not declare fails locally.

const context = {} as import('aws-lambda').Context;
const before = { ...process.env };

beforeAll(() => {
  for (const q of queues) process.env[q.urlEnv] = `http://queues.local/${q.name}`;
});
afterAll(() => {
  for (const q of queues) {
    if (before[q.urlEnv] === undefined) delete process.env[q.urlEnv];
    else process.env[q.urlEnv] = before[q.urlEnv];
  }
});

describe("a handler's environment locally", () => {
  it('holds the URLs of the queues its entry declares, and no others, across awaits', async () => {
    const seen = await withDeclaredQueues(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { live: process.env[QUEUE_URL_ENV.live], jobs: process.env[QUEUE_URL_ENV.jobs], keys: Object.keys(process.env) };
    }, ['live'])({}, context);
    expect(seen.live).toBe('http://queues.local/live');
    expect(seen.jobs).toBeUndefined();
    expect(seen.keys).toContain(QUEUE_URL_ENV.live);
    expect(seen.keys).not.toContain(QUEUE_URL_ENV.jobs);
    // Outside any handler, and for other variables, the environment is as it was.
    expect(process.env[QUEUE_URL_ENV.jobs]).toBe('http://queues.local/jobs');
    expect(process.env.PATH).toBe(before.PATH);
  });

  it('fails a send to a queue the entry does not declare, before anything is sent', async () => {
    const handler = withDeclaredQueues(() => sendMessages('jobs', [{ body: { x: 1 } }]), ['live']);
    await expect(handler({}, context)).rejects.toThrow(`Environment variable ${QUEUE_URL_ENV.jobs} is not set`);
    const none = withDeclaredQueues(() => sendMessages('live', [{ body: { x: 1 } }]));
    await expect(none({}, context)).rejects.toThrow(`Environment variable ${QUEUE_URL_ENV.live} is not set`);
  });

  it('keeps two handlers running at once apart', async () => {
    const read = (name: string) =>
      withDeclaredQueues(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return process.env[name];
      }, [name === QUEUE_URL_ENV.live ? 'live' : 'jobs']);
    const [live, jobs, hiddenJobs] = await Promise.all([
      read(QUEUE_URL_ENV.live)({}, context),
      read(QUEUE_URL_ENV.jobs)({}, context),
      withDeclaredQueues(async () => process.env[QUEUE_URL_ENV.jobs], ['live'])({}, context),
    ]);
    expect([live, jobs, hiddenJobs]).toEqual(['http://queues.local/live', 'http://queues.local/jobs', undefined]);
  });
});
