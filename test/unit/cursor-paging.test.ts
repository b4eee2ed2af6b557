import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '#lib/store/cursor.ts';
import { arrayReader, paginate, type PageRequest } from '#lib/store/cursor-page.ts';
import { capTotalCount } from '#lib/http/total-count.ts';

// The pure parts of cursor paging: the cap of totalCount, opaque cursors, and the page rules of
// lib/store/cursor-page.ts over an in-memory list (the DynamoDB reader has the same contract).

describe('capTotalCount', () => {
  it('counts up to 50,000 and flags anything beyond', () => {
    expect(capTotalCount(0)).toEqual({ totalCount: 0, totalCountCapped: false });
    expect(capTotalCount(49_999)).toEqual({ totalCount: 49_999, totalCountCapped: false });
    expect(capTotalCount(50_000)).toEqual({ totalCount: 50_000, totalCountCapped: false });
    expect(capTotalCount(50_001)).toEqual({ totalCount: 50_000, totalCountCapped: true });
    expect(capTotalCount(1_000_000)).toEqual({ totalCount: 50_000, totalCountCapped: true });
    expect(capTotalCount(-1)).toEqual({ totalCount: 0, totalCountCapped: false });
  });
});

describe('opaque cursors', () => {
  it('round-trip sort keys and refuse what they did not produce', () => {
    for (const key of ['SUB#alice', '2026-01-01T00:00:00.000Z#0123456789abcdef01234567', 'SUB#ü@example.com']) {
      expect(decodeCursor(encodeCursor(key))).toBe(key);
    }
    expect(decodeCursor('not a cursor')).toBeUndefined();
    expect(decodeCursor('a')).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
  });
});

describe('paginate', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const read = arrayReader(items, (i) => i);
  const run = (request: Partial<PageRequest>) => paginate(read, (i) => i, { limit: 3, orderDirection: 'ASC', ...request });

  it('pages forward with next, and previous only when something lies before', async () => {
    expect(await run({})).toEqual({ items: ['a', 'b', 'c'], next: 'c', previous: null, cursorFound: true });
    expect(await run({ after: 'c' })).toEqual({ items: ['d', 'e', 'f'], next: 'f', previous: 'd', cursorFound: true });
    expect(await run({ after: 'f' })).toEqual({ items: ['g'], next: null, previous: 'g', cursorFound: true });
    expect(await run({ after: 'g' })).toEqual({ items: [], next: null, previous: null, cursorFound: true });
    expect(await run({ limit: 7 })).toEqual({ items, next: null, previous: null, cursorFound: true });
  });

  it('pages backward in list order, with previous only when more lies before', async () => {
    expect(await run({ before: 'e' })).toEqual({ items: ['b', 'c', 'd'], next: 'd', previous: 'b', cursorFound: true });
    expect(await run({ before: 'b' })).toEqual({ items: ['a'], next: 'a', previous: null, cursorFound: true });
    expect(await run({ before: 'a' })).toEqual({ items: [], next: null, previous: null, cursorFound: true });
  });

  it('reads descending lists the other way round', async () => {
    expect(await run({ orderDirection: 'DESC' })).toEqual({ items: ['g', 'f', 'e'], next: 'e', previous: null, cursorFound: true });
    expect(await run({ orderDirection: 'DESC', after: 'e' })).toEqual({
      items: ['d', 'c', 'b'],
      next: 'b',
      previous: 'd',
      cursorFound: true,
    });
    expect(await run({ orderDirection: 'DESC', before: 'b' })).toEqual({
      items: ['e', 'd', 'c'],
      next: 'c',
      previous: 'e',
      cursorFound: true,
    });
  });

  it('includes the cursor item with includeCursor, and checks what lies beyond it', async () => {
    expect(await run({ after: 'c', includeCursor: true })).toEqual({ items: ['c', 'd', 'e'], next: 'e', previous: 'c', cursorFound: true });
    expect(await run({ after: 'a', includeCursor: true })).toEqual({
      items: ['a', 'b', 'c'],
      next: 'c',
      previous: null,
      cursorFound: true,
    });
    expect(await run({ before: 'g', includeCursor: true })).toEqual({
      items: ['e', 'f', 'g'],
      next: null,
      previous: 'e',
      cursorFound: true,
    });
  });

  it('gives an empty page for a cursor that names no item', async () => {
    for (const request of [{ after: 'cc' }, { before: 'cc' }, { after: 'z', includeCursor: true }]) {
      expect(await run(request)).toEqual({ items: [], next: null, previous: null, cursorFound: false });
    }
  });
});
