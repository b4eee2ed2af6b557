import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestOrg } from '../support/api.ts';

// The console served by the API on its own origin, through the local gateway and its route order
// (infra/routes/console.ts): the page for `/` and every view path, its files and configuration,
// and the API's own routes and 404 body untouched.

let api: TestApi;
let org: TestOrg;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
});
afterAll(() => api?.close());

const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init);

describe('the console on the API origin', () => {
  it.each(['/', '/console/sign-in', '/console/env/x/activity', '/console/env/x/subscribers/ada@example.com'])(
    'answers %s with the page, never cached, with its security headers',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // The page may connect to this origin and the inbox sockets' origin, nothing else.
      expect(res.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(api.socketUrl).origin};`);
      const html = await res.text();
      expect(html).toContain('<div id="root">');
    },
  );

  it('answers the page’s script and styles, cached for a year', async () => {
    const html = await (await get('/')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await get(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.text()).length).toBeGreaterThan(0);
    }
    expect((await get('/console/assets/index-missing.js')).status).toBe(404);
  });

  it('tells the page where the live inbox’s sockets are', async () => {
    const res = await get('/console/config.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ socketUrl: api.socketUrl });
  });

  it('never answers a file outside its folder', async () => {
    for (const path of [
      '/console/..%2f..%2fpackage.json',
      '/console/%2e%2e/%2e%2e/package.json',
      '/console/assets/..%2f..%2f..%2fpackage.json',
    ]) {
      const res = await get(path);
      expect(await res.text(), path).not.toContain('"dependencies"');
    }
  });

  it('leaves the API as it was: its routes answer JSON, an unknown path the 404 error body', async () => {
    const unknown = await get('/v1/unknown');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: 404, path: '/v1/unknown', error: 'Not Found' });
    // Only GET serves the console: another method is an unknown route.
    const posted = await get('/console/env/x/activity', { method: 'POST' });
    expect(posted.status).toBe(404);
    expect(await posted.json()).toMatchObject({ statusCode: 404 });
    const listed = await get('/v1/integrations', { headers: { authorization: `ApiKey ${org.dev.apiKey}` } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toContain('application/json');
    const openapi = await get('/openapi.json');
    expect(Object.keys(((await openapi.json()) as { paths: object }).paths).filter((p) => p === '/' || p.startsWith('/console'))).toEqual(
      [],
    );
  });
});
