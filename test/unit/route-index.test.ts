import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_INDEX_FILE, routeIndex } from '#infra/scripts/route-index.ts';

// docs/routes.md is generated from the route table and the handlers (infra/scripts/route-index.ts):
// a route added, moved or served by another use case without `npm run docs:routes` fails here.

describe('the route index (docs/routes.md)', () => {
  it('is what `npm run docs:routes` makes from the route table today', () => {
    expect(readFileSync(ROUTE_INDEX_FILE, 'utf8'), 'docs/routes.md is stale: run `npm run docs:routes`').toBe(routeIndex());
  });
});
