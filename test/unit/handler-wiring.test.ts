import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { consoleRoute } from '#infra/routes/console.ts';
import { fallbackRoute } from '#infra/routes/fallback.ts';
import { streamConsumers } from '#infra/streams.ts';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';

// Every Lambda in functions/ is deployed because a table names it: the HTTP route table, the
// socket routes, the queues' consumers or the fallback route. A file no table names is never
// deployed; a file named twice would be two functions with one behaviour; and an HTTP handler
// built with another entry than the one naming its file would validate and answer as that other
// route. Each is checked here, with the naming rule that takes a reader from an operation to its
// file: functions/<area>/<operationId in kebab case>.ts.

const ROOT = join(import.meta.dirname, '../..');

function functionFiles(dir = join(ROOT, 'functions')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? functionFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [relative(ROOT, join(dir, entry.name))] : [],
  );
}

/** `markMessageFlags` → `mark-message-flags`; `OAuth` is one word (`chatOAuthCallback` → `chat-oauth-callback`). */
const kebab = (operationId: string) =>
  operationId
    .replace(/OAuth/g, 'Oauth')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();

const named = [
  ...routes.map((r) => r.handler),
  ...socketRoutes.map((r) => r.handler),
  socketAuthorizer.handler,
  ...queues.flatMap((q) => (q.consumer ? [q.consumer] : [])),
  ...streamConsumers.map((c) => c.consumer),
  fallbackRoute.handler,
  consoleRoute.handler,
];

describe('handler wiring', () => {
  it('names every file of functions/ exactly once, and no file that does not exist', () => {
    const files = functionFiles().sort();
    expect([...named].sort()).toEqual(files);
  });

  it.each(routes.map((r) => [r.operationId, r.handler] as const))(
    '%s: %s serves that entry of the route table',
    async (operationId, file) => {
      const module = (await import(join(ROOT, file))) as { handler?: { operationId?: string } };
      expect(module.handler?.operationId).toBe(operationId);
    },
  );

  it.each(routes.map((r) => [r.operationId, r.handler] as const))('%s: %s is named after its operation', (operationId, file) => {
    expect(file.split('/').pop()).toBe(`${kebab(operationId)}.ts`);
  });
});
