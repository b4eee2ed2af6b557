import { describe, expect, it } from 'vitest';
import { rank, type Ranked } from '#lib/integrations/ranking.ts';

// Priority and primary of a channel's active integrations, as moves change them.

const a = (id: string, priority: number, primary = false): Ranked => ({ _id: id, priority, primary });
const asObject = ({ changes }: ReturnType<typeof rank>) => Object.fromEntries(changes);

describe('rank', () => {
  it('makes the first active integration of a channel its primary', () => {
    expect(asObject(rank([], { kind: 'activate', id: 'x' }))).toEqual({ x: { priority: 1, primary: true } });
  });

  it('puts a newly active integration just below the primary', () => {
    const actives = [a('p', 2, true), a('o', 1)];
    expect(asObject(rank(actives, { kind: 'activate', id: 'x' }))).toEqual({
      p: { priority: 3, primary: true },
      x: { priority: 2, primary: false },
    });
  });

  it('makes a newly active integration primary when the channel has none', () => {
    const actives = [a('o', 1)];
    // o keeps priority 1, so only x changes.
    expect(asObject(rank(actives, { kind: 'activate', id: 'x' }))).toEqual({ x: { priority: 2, primary: true } });
  });

  it('renumbers the rest when one leaves, and zeroes the one that left', () => {
    const actives = [a('p', 3, true), a('m', 2), a('l', 1)];
    expect(asObject(rank(actives, { kind: 'deactivate', id: 'm' }))).toEqual({
      m: { priority: 0, primary: false },
      p: { priority: 2, primary: true },
    });
  });

  it('moves the new primary to the top and takes primary from the old one', () => {
    const actives = [a('p', 3, true), a('m', 2), a('l', 1)];
    expect(asObject(rank(actives, { kind: 'setPrimary', id: 'l' }))).toEqual({
      l: { priority: 3, primary: true },
      p: { priority: 2, primary: false },
      m: { priority: 1, primary: false },
    });
  });

  it('activates an inactive integration made primary', () => {
    const actives = [a('p', 1, true)];
    expect(asObject(rank(actives, { kind: 'setPrimary', id: 'x' }))).toEqual({
      x: { priority: 2, primary: true },
      p: { priority: 1, primary: false },
    });
  });

  it('keeps the place of an integration that stops being primary', () => {
    const actives = [a('p', 2, true), a('o', 1)];
    expect(asObject(rank(actives, { kind: 'unsetPrimary', id: 'p' }))).toEqual({ p: { priority: 2, primary: false } });
  });

  it('returns the whole active list after the move, highest priority first', () => {
    const actives = [a('p', 2, true), a('o', 1)];
    expect(rank(actives, { kind: 'activate', id: 'x' }).order).toEqual([a('p', 3, true), a('x', 2), a('o', 1)]);
  });

  it('orders equal priorities by id, so the outcome does not depend on read order', () => {
    const forward = rank([a('a1', 0), a('b2', 0)], { kind: 'activate', id: 'x' });
    const backward = rank([a('b2', 0), a('a1', 0)], { kind: 'activate', id: 'x' });
    expect(asObject(forward)).toEqual(asObject(backward));
  });
});
