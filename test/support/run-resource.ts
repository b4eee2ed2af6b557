// A resource of the whole run that several projects' global setups name (the local stack,
// Chromium). Vitest loads such a setup once per project, each time as a module of its own, so the
// one copy is kept on globalThis: the first setup to acquire it starts it, and the last teardown to
// release it gets it back, to stop it.

export interface RunResource<T> {
  acquire(): T;
  /** The resource when this was its last user (the caller stops it), else undefined. */
  release(): T | undefined;
}

export function runResource<T>(name: string, start: () => T): RunResource<T> {
  const key = Symbol.for(`notify.${name}`);
  const shared = globalThis as { [key: symbol]: { users: number; value: T } | undefined };
  return {
    acquire() {
      const run = (shared[key] ??= { users: 0, value: start() });
      run.users++;
      return run.value;
    },
    release() {
      const run = shared[key];
      if (!run || --run.users > 0) return undefined;
      delete shared[key];
      return run.value;
    },
  };
}
