import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withDeclaredQueues } from './function-env.ts';

// Loads a handler module named in the route or queue table, the way Lambda would load its entry.
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyHandler = (event: any, context: import('aws-lambda').Context) => Promise<any>;

const loaded = new Map<string, Promise<AnyHandler>>();

/**
 * The handler of `modulePath`, run as the function of an entry that declares `sends` (the queues it
 * sends to; none by default) is run in AWS: with those queues' URLs and no others (function-env.ts).
 */
export async function loadHandler(modulePath: string, sends?: readonly string[]): Promise<AnyHandler> {
  let handler = loaded.get(modulePath);
  if (!handler) {
    handler = import(pathToFileURL(resolve(ROOT, modulePath)).href).then((mod: { handler?: AnyHandler }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${modulePath} exports no handler`);
      return mod.handler;
    });
    loaded.set(modulePath, handler);
  }
  return withDeclaredQueues(await handler, sends);
}
