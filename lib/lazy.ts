// A package a function loads when a request or job first needs it, not when Lambda starts the
// function (docs/performance.md, "Small functions"). The bundles leave the package out
// (infra/bundling.ts, LAZY_PACKAGES) and Lambda finds it, bundled and minified by itself, in the
// lazy-packages layer; the local runtime and the tests import it from node_modules.
// `load()` imports it once (callers at the same moment share the import). `get()` answers it to
// synchronous code that runs after a `load()`, and says which load is missing if none ran.

export interface Lazy<T> {
  load(): Promise<T>;
  get(): T;
}

export function lazy<T>(name: string, importer: () => Promise<T>): Lazy<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load: () =>
      loaded !== undefined
        ? Promise.resolve(loaded)
        : (loading ??= importer().then(
            (value) => (loaded = value),
            (error: unknown) => {
              // The next load tries again.
              loading = undefined;
              throw error;
            },
          )),
    get: () => {
      if (loaded === undefined) throw new Error(`${name} is used before it was loaded (await its load() first)`);
      return loaded;
    },
  };
}
