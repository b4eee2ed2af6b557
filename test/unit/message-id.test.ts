import { describe, expect, it } from 'vitest';
import { isId, timeOfId } from '#lib/ids.ts';
import type { JobContext } from '#lib/pipeline/decision.ts';
import { messageIdOf, messageStampOf } from '#lib/pipeline/message-id.ts';
import { newMessage } from '#lib/pipeline/steps/message.ts';

// A job's message id is what lets a repeated run find the message instead of adding a second
// one (lib/pipeline/store-decision.ts), and what orders the inbox.

describe('the message id of a job', () => {
  const job = { _id: '6741a3f0c0ffee0000000001', updatedAt: '2026-11-23T00:40:12.345Z' };

  it('is the same for every run of the job while it waits, and looks like any other id', () => {
    expect(messageIdOf({ ...job })).toBe(messageIdOf(job));
    expect(isId(messageIdOf(job))).toBe(true);
    expect(timeOfId(messageIdOf(job)).toISOString()).toBe('2026-11-23T00:40:12.000Z');
  });

  it('differs for another job, or for the same job queued again later', () => {
    expect(messageIdOf({ ...job, _id: '6741a3f0c0ffee0000000002' })).not.toBe(messageIdOf(job));
    expect(messageIdOf({ ...job, updatedAt: '2026-11-23T00:40:12.346Z' })).not.toBe(messageIdOf(job));
  });

  it('sorts by the time the job was queued, to the millisecond', () => {
    const times = ['2026-11-23T00:40:12.009Z', '2026-11-23T00:40:12.010Z', '2026-11-23T00:40:12.999Z', '2026-11-23T00:40:13.000Z'];
    const ids = times.map((updatedAt, i) => messageIdOf({ _id: `6741a3f0c0ffee000000000${9 - i}`, updatedAt }));
    expect([...ids].sort()).toEqual(ids);
  });

  it('and the message createdAt are one instant: ordered by id, messages are in createdAt order', () => {
    expect(messageStampOf(job)).toEqual({ _id: messageIdOf(job), createdAt: '2026-11-23T00:40:12.345Z' });
    // Jobs of one trigger queued a few milliseconds apart, in any order of their own ids.
    const times = ['2026-11-23T00:40:12.523Z', '2026-11-23T00:40:12.500Z', '2026-11-23T00:40:12.500Z', '2026-11-23T00:40:13.001Z'];
    const stamps = times.map((updatedAt, i) => messageStampOf({ _id: `6741a3f0c0ffee00000000${10 + i}`, updatedAt }));
    const newestFirst = [...stamps].sort((a, b) => (a._id < b._id ? 1 : -1));
    const createdAts = newestFirst.map((s) => Date.parse(s.createdAt));
    expect(createdAts).toEqual([...createdAts].sort((a, b) => b - a));
  });

  it('is the instant of the message a step records, however later the step runs', () => {
    const context = {
      notification: { _id: 'n', payload: {}, overrides: {}, tags: [], contextKeys: [] },
      job,
      step: { _id: 's', stepId: 'inbox' },
      workflow: { name: 'W' },
      now: new Date('2026-11-23T00:40:12.900Z'),
    } as unknown as JobContext;
    const message = newMessage(context, 'in_app', { providerId: 'svc' }, {});
    expect(message).toMatchObject({ _id: messageIdOf(job), createdAt: job.updatedAt, deliveredAt: ['2026-11-23T00:40:12.900Z'] });
  });
});
