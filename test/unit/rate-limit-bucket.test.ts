import { describe, expect, it } from 'vitest';
import { decide, taken } from '#lib/rate-limits/bucket.ts';
import { bucketPolicy, SERVICE_LEVELS } from '#lib/rate-limits/policy.ts';

// The token bucket's arithmetic with a clock of our own (microseconds): a bucket holds 5 seconds
// of its limit plus 10 %, refills one token every 1/limit seconds, never beyond full, and a
// refused request changes nothing.

const SECOND = 1_000_000;
const T0 = 1_700_000_000 * SECOND;

describe('bucketPolicy', () => {
  it('has the reference’s figures: limit = 5 s of requests, burst 10 % more', () => {
    expect(bucketPolicy('global', SERVICE_LEVELS.business.global, 'business')).toMatchObject({
      limit: 1500,
      burst: 1650,
      tokenMicros: 3333,
    });
    expect(bucketPolicy('trigger', SERVICE_LEVELS.free.trigger, 'free')).toMatchObject({ limit: 300, burst: 330 });
  });
});

describe('decide', () => {
  const policy = bucketPolicy('global', 2, 'free'); // 11 tokens, one back every 0.5 s

  /** Sends `n` requests at `now`, each against the state the last one left. */
  function burst(fullAt: number | undefined, now: number, n: number, cost: 'single' | 'bulk' = 'single') {
    const verdicts = [];
    for (let i = 0; i < n; i++) {
      const verdict = decide(fullAt, now, policy, cost);
      verdicts.push(verdict);
      fullAt = verdict.fullAt;
    }
    return { verdicts, fullAt };
  }

  it('lets a full bucket’s tokens go at once, then refuses until one is back', () => {
    const { verdicts, fullAt } = burst(undefined, T0, 12);
    expect(verdicts.map((v) => v.allowed)).toEqual([...Array(11).fill(true), false]);
    expect(verdicts.map((v) => v.remaining)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(verdicts[11]!.resetSeconds).toBe(1);
    expect(decide(fullAt, T0 + 0.5 * SECOND - 1, policy, 'single').allowed).toBe(false);
    expect(decide(fullAt, T0 + 0.5 * SECOND, policy, 'single')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refills continuously and never beyond full', () => {
    const { fullAt } = burst(undefined, T0, 11);
    expect(decide(fullAt, T0 + 2 * SECOND, policy, 'single').remaining).toBe(3);
    expect(decide(fullAt, T0 + 60 * SECOND, policy, 'single').remaining).toBe(10);
    // A bucket full long ago is as full as a new one.
    expect(decide(T0, T0 + 3600 * SECOND, policy, 'single')).toEqual(decide(undefined, T0 + 3600 * SECOND, policy, 'single'));
  });

  it('starts a bucket over when the clock went back past what the bucket can hold', () => {
    const { fullAt } = burst(undefined, T0, 5); // full again at T0 + 2.5 s
    // A second back the state is 3.5 s ahead, within an empty bucket's 5.5 s refill: still counted.
    expect(decide(fullAt, T0 - SECOND, policy, 'single')).toMatchObject({ allowed: true, remaining: 3 });
    // An hour back it can only be a clock that went back: the bucket is full.
    expect(decide(fullAt, T0 - 3600 * SECOND, policy, 'single')).toMatchObject({ allowed: true, remaining: 10 });
  });

  it('leaves the state alone when it refuses', () => {
    const { fullAt } = burst(undefined, T0, 11);
    expect(decide(fullAt, T0, policy, 'single').fullAt).toBe(fullAt);
  });

  it('charges a bulk request 100 tokens, or a whole bucket that holds fewer', () => {
    const trigger = bucketPolicy('trigger', 40, 'free'); // 220 tokens, 25 ms each
    let state = decide(undefined, T0, trigger, 'bulk');
    expect(state).toMatchObject({ allowed: true, remaining: 120, resetSeconds: 3 });
    state = decide(state.fullAt, T0, trigger, 'bulk');
    expect(state.remaining).toBe(20);
    // 20 left: (100 − 20) × 25 ms until a bulk request fits.
    expect(decide(state.fullAt, T0, trigger, 'bulk')).toMatchObject({ allowed: false, resetSeconds: 2 });
    expect(decide(state.fullAt, T0 + 2 * SECOND, trigger, 'bulk').allowed).toBe(true);

    const small = bucketPolicy('trigger', 1, 'custom'); // 5 tokens
    const first = decide(undefined, T0, small, 'bulk');
    expect(first).toMatchObject({ allowed: true, remaining: 0 });
    expect(decide(first.fullAt, T0 + 4 * SECOND, small, 'bulk').allowed).toBe(false);
    expect(decide(first.fullAt, T0 + 5 * SECOND, small, 'bulk').allowed).toBe(true);
  });

  it('reports, after a request, when its tokens are back', () => {
    const after = taken(T0 + 4 * 500_000, T0, policy, 'single');
    expect(after).toMatchObject({ remaining: 7, resetSeconds: 1 });
  });
});
