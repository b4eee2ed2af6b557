import { describe, expect, it } from 'vitest';
import { idOf, isId, newId, timeOfId } from '#lib/ids.ts';

// Lists kept in id order (a subscriber's subscriptions, execution details, the inbox) must be in
// the order of their records' createdAt: an id made from the instant its record's createdAt says
// sorts among others as that createdAt does, to the millisecond.

describe('record ids', () => {
  it('look like the reference ids and start with their time', () => {
    const at = Date.parse('2026-11-29T07:00:41.494Z');
    for (const id of [newId(at), idOf('seed', at)]) {
      expect(isId(id)).toBe(true);
      expect(timeOfId(id).toISOString()).toBe('2026-11-29T07:00:41.000Z');
    }
  });

  it('made from instants in any order, sort as the instants do, within one second too', () => {
    const base = Date.parse('2026-11-29T07:00:41.000Z');
    const instants = [523, 500, 9, 999, 10, 500, 1000, 1001].map((ms) => base + ms);
    const made = instants.map((at, i) => ({ at, ids: [newId(at), idOf(`seed-${i}`, at)] }));
    for (const pick of [0, 1]) {
      const byId = [...made].sort((a, b) => (a.ids[pick]! < b.ids[pick]! ? -1 : 1)).map((m) => m.at);
      expect(byId).toEqual([...instants].sort((a, b) => a - b));
    }
  });

  it('made in one process at one instant are distinct and in the order made', () => {
    const at = Date.now();
    const ids = Array.from({ length: 100 }, () => newId(at));
    expect(new Set(ids).size).toBe(100);
    // The counter wraps once in 16.7 million ids; these 100 may straddle it at most once.
    const unsorted = ids.filter((id, i) => i > 0 && id < ids[i - 1]!).length;
    expect(unsorted).toBeLessThanOrEqual(1);
  });
});
