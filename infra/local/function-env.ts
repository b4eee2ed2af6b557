import { AsyncLocalStorage } from 'node:async_hooks';
import { queues } from '../queues.ts';

// In AWS a function's environment holds the URLs of the queues its entry declares (`sends`: the
// stack sets those and grants sqs:SendMessage on them) and no others. Locally every handler
// shares one process's environment, which holds every URL; so while a handler runs, the URLs of
// the queues its entry does not declare read as unset, and code that reaches such a queue fails
// here (its sender finds no URL) as it would deployed, instead of passing every local test.

const hiddenNow = new AsyncLocalStorage<ReadonlySet<string>>();
const INSTALLED = Symbol.for('notify.functionEnv');

/** process.env, seen through the running handler's declaration; once per process (or thread). */
function install(): void {
  const global = globalThis as { [INSTALLED]?: boolean };
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  const env = process.env;
  const hidden = (key: string | symbol) => typeof key === 'string' && hiddenNow.getStore()?.has(key) === true;
  process.env = new Proxy(env, {
    get: (target, key) => (hidden(key) ? undefined : Reflect.get(target, key)),
    has: (target, key) => !hidden(key) && Reflect.has(target, key),
    ownKeys: (target) => Reflect.ownKeys(target).filter((key) => !hidden(key)),
    getOwnPropertyDescriptor: (target, key) => (hidden(key) ? undefined : Reflect.getOwnPropertyDescriptor(target, key)),
    // Writes and deletes go to the real environment, which turns values into strings.
    set: (target, key, value) => {
      (target as Record<string | symbol, unknown>)[key] = value;
      return true;
    },
    deleteProperty: (target, key) => delete (target as Record<string | symbol, unknown>)[key],
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any, context: import('aws-lambda').Context) => Promise<any>;

/** `handler`, run with the environment of a function whose entry declares `sends` (none: no queue URL). */
export function withDeclaredQueues(handler: Handler, sends: readonly string[] = []): Handler {
  install();
  const hidden = new Set(queues.filter((q) => !sends.includes(q.name)).map((q) => q.urlEnv));
  return (event, context) => hiddenNow.run(hidden, () => handler(event, context));
}
