import { describe, expect, it } from 'vitest';
import { activityQuery, isFiltered, localDateTime, paramsOfForm, withPage } from '../../console/src/views/activity/filters.ts';
import { overallStatus, stillRunning } from '../../console/src/views/activity/status.ts';
import type { ActivityNotification } from '../../console/src/views/activity/types.ts';

// The console's activity views: the one word a notification's jobs add up to, and the filters'
// trip from the form to the URL to the API's query (the browser test drives the pages).

/** Jobs by status, `type:status` where the kind matters (in-app otherwise). */
const withJobs = (...statuses: string[]): ActivityNotification => ({
  _id: 'n',
  _subscriberId: 's',
  transactionId: 't',
  jobs: statuses.map((entry, i) => ({
    _id: `j${i}`,
    type: entry.includes(':') ? entry.split(':')[0]! : 'in_app',
    status: entry.split(':').pop()!,
    providerId: 'svc',
    step: { _id: `s${i}` },
    executionDetails: [],
  })),
});

describe('a notification’s overall status', () => {
  it('while a job waits: the channels already sent and what waits, else the waiting job’s status', () => {
    expect(overallStatus(withJobs('in_app:completed', 'digest:delayed', 'email:pending'))).toBe('In-app sent, digest waiting');
    expect(stillRunning(withJobs('in_app:completed', 'digest:delayed', 'email:pending'))).toBe(true);
    expect(overallStatus(withJobs('delay:delayed', 'email:pending'))).toBe('delayed');
  });

  it('a channel step canceled beside one sent reads partly sent', () => {
    expect(overallStatus(withJobs('in_app:completed', 'digest:completed', 'email:canceled'))).toBe('partly sent');
  });

  it('once all are final: failed over merged over completed, else what the first became', () => {
    expect(overallStatus(withJobs('completed', 'failed', 'canceled'))).toBe('failed');
    expect(overallStatus(withJobs('completed', 'merged', 'merged'))).toBe('merged');
    expect(overallStatus(withJobs('skipped', 'completed'))).toBe('completed');
    expect(overallStatus(withJobs('skipped', 'skipped'))).toBe('skipped');
    expect(stillRunning(withJobs('completed', 'merged'))).toBe(false);
  });
});

describe('activity filters', () => {
  it('go from the form to the URL as repeated keys, and from the URL to the API’s query', () => {
    const form = new FormData();
    form.append('subscriberIds', ' ada, bob ,');
    form.append('transactionId', 'tx-1');
    form.append('channels', 'email');
    form.append('channels', 'sms');
    form.append('topicKey', '  ');
    form.append('after', '2026-01-02T03:04:05');
    form.append('limit', '20');
    const params = paramsOfForm(form);
    expect(params.getAll('subscriberIds')).toEqual(['ada', 'bob']);
    expect(params.has('topicKey')).toBe(false);
    expect(params.has('limit')).toBe(false);
    expect(params.get('after')).toBe(new Date('2026-01-02T03:04:05').toISOString());
    expect(localDateTime(params.get('after'))).toBe('2026-01-02T03:04:05');
    expect(isFiltered(params)).toBe(true);

    expect(activityQuery(new URLSearchParams(`${params.toString()}&page=2&limit=500`))).toEqual({
      page: 2,
      limit: 50,
      subscriberIds: ['ada', 'bob'],
      transactionId: ['tx-1'],
      channels: ['email', 'sms'],
      after: params.get('after'),
    });
    expect(activityQuery(new URLSearchParams('page=-3&limit=x'))).toEqual({ page: 0, limit: 20 });
    expect(isFiltered(new URLSearchParams('page=1&limit=10'))).toBe(false);
  });

  it('page links keep the filters', () => {
    const params = new URLSearchParams('transactionId=a&page=3');
    expect(withPage(params, 4)).toBe('?transactionId=a&page=4');
    expect(withPage(params, 0)).toBe('?transactionId=a');
  });
});
