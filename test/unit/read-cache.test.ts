import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadCache } from '#lib/store/read-cache.ts';

// The consumers' per-container cache of rarely changing reads (workflows, the in-app integration):
// kept for its time and no longer, bounded, one read for concurrent misses, nothing kept that was
// not found or failed, and read again when the entry is older than the caller accepts.

afterEach(() => vi.useRealTimers());

/** A loader that counts its calls and answers `values` in turn (the last one from then on). */
function loader<T>(...values: (T | undefined)[]) {
  let calls = 0;
  const load = vi.fn(async () => values[Math.min(calls++, values.length - 1)]);
  return load;
}

describe('ReadCache', () => {
  it('keeps a value for its time, then reads again', async () => {
    vi.useFakeTimers({ now: 0 });
    const cache = new ReadCache<string>(5_000, 10);
    const load = loader('v1', 'v2');
    expect(await cache.get('k', load)).toBe('v1');
    vi.setSystemTime(4_999);
    expect(await cache.get('k', load)).toBe('v1');
    vi.setSystemTime(5_000);
    expect(await cache.get('k', load)).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one read between concurrent misses', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    const load = loader('v');
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual(['v', 'v', 'v']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing that was not found or failed', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    const missing = loader<string>(undefined, 'created');
    expect(await cache.get('k', missing)).toBeUndefined();
    expect(await cache.get('k', missing)).toBe('created');

    const failing = vi.fn().mockRejectedValueOnce(new Error('throttled')).mockResolvedValue('v');
    await expect(cache.get('f', failing)).rejects.toThrow('throttled');
    expect(await cache.get('f', failing)).toBe('v');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('reads again when the kept value is older than the caller accepts', async () => {
    const cache = new ReadCache<{ version: number }>(5_000, 10);
    const load = loader({ version: 1 }, { version: 2 });
    const atLeast = (min: number) => (w: { version: number }) => w.version >= min;
    expect(await cache.get('wf', load, atLeast(1))).toEqual({ version: 1 });
    expect(await cache.get('wf', load, atLeast(1))).toEqual({ version: 1 });
    expect(await cache.get('wf', load, atLeast(2))).toEqual({ version: 2 });
    // The newer value replaced the older one for everybody.
    expect(await cache.get('wf', load, atLeast(1))).toEqual({ version: 2 });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('holds at most its bound, dropping the least recently used', async () => {
    const cache = new ReadCache<string>(5_000, 2);
    const loads = { a: loader('a'), b: loader('b'), c: loader('c') };
    await cache.get('a', loads.a);
    await cache.get('b', loads.b);
    await cache.get('a', loads.a); // a is now the most recently used
    await cache.get('c', loads.c); // drops b
    await cache.get('a', loads.a);
    await cache.get('b', loads.b);
    expect(loads.a).toHaveBeenCalledTimes(1);
    expect(loads.b).toHaveBeenCalledTimes(2);
    expect(loads.c).toHaveBeenCalledTimes(1);
  });
});
