import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleFile, securityHeaders } from '#lib/console/static-files.ts';

// The console's files as the function answers them (lib/console/static-files.ts), on a built
// folder of its own with a file beside it that must never be read.

const base = mkdtempSync(join(tmpdir(), 'console-files-'));
const root = join(base, 'dist');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
const BIG_SCRIPT = `${'export const greeting = "hello, console";\n'.repeat(200)}`;
writeFileSync(join(root, 'assets', 'big-0a1b2c.js'), BIG_SCRIPT);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
writeFileSync(join(root, 'assets', 'logo-def456.png'), PNG);
writeFileSync(join(base, 'package.json'), '{"secret":true}');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const site = { root, socketUrl: 'wss://sockets.example.com/prod' };
const PAGE = '<!doctype html><div id="root"></div>';

describe('console static files', () => {
  it.each([
    '',
    'sign-in',
    'env/6650f0c2a1b2c3d4e5f60718/activity',
    'env/x/subscribers/ada@example.com',
    'env/x/workflows/a.json',
    'index.html',
  ])('answers the page, never cached, for the view %j', (path) => {
    const answer = consoleFile(site, path);
    expect(answer).toMatchObject({ status: 200, body: PAGE, isBase64Encoded: false });
    expect(answer.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
  });

  it('answers a hashed asset cached for a year, a top-level file not cached', () => {
    const asset = consoleFile(site, 'assets/index-abc123.js');
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)', isBase64Encoded: false });
    expect(asset.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const icon = consoleFile(site, 'favicon.svg');
    expect(icon.headers).toMatchObject({ 'content-type': 'image/svg+xml', 'cache-control': 'no-cache' });
  });

  it('answers a binary file base64-encoded, byte for byte', () => {
    const answer = consoleFile(site, 'assets/logo-def456.png');
    expect(answer).toMatchObject({ status: 200, isBase64Encoded: true });
    expect(answer.headers['content-type']).toBe('image/png');
    expect(Buffer.from(answer.body, 'base64')).toEqual(PNG);
  });

  it.each(['assets/index-old999.js', 'assets/', 'assets/missing.txt', 'robots.txt.js', 'manifest.json'])(
    'answers 404 for the missing file %j, not the page',
    (path) => {
      const answer = consoleFile(site, path);
      expect(answer).toMatchObject({ status: 404, body: 'Not found' });
      expect(answer.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each([
    '../package.json',
    '..%2fpackage.json',
    '..%2f..%2fpackage.json',
    '%2e%2e%2fpackage.json',
    '%2E%2E/package.json',
    'assets/../../package.json',
    'assets/%2e%2e/%2e%2e/package.json',
    'assets%2f..%2f..%2fpackage.json',
    '..%5cpackage.json',
    'assets/..\\..\\package.json',
    '%252e%252e%252fpackage.json',
    '..%00/package.json',
    '%E0%A4%A',
  ])('never reads outside the folder: %j', (path) => {
    const answer = consoleFile(site, path);
    expect(answer.body).not.toContain('secret');
    expect(answer.status === 404 || answer.body === PAGE).toBe(true);
  });

  it('sends the security headers on every answer, connect-src naming only this origin and the socket origin', () => {
    for (const answer of [consoleFile(site, ''), consoleFile(site, 'assets/index-abc123.js'), consoleFile(site, 'assets/nothing.js')]) {
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'same-origin',
      });
      const csp = answer.headers['content-security-policy']!;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self' wss://sockets.example.com;");
    }
  });

  it('names the local socket origin with its port, and no socket origin when there is none', () => {
    expect(securityHeaders('ws://127.0.0.1:3001')['content-security-policy']).toContain("connect-src 'self' ws://127.0.0.1:3001;");
    expect(securityHeaders(undefined)['content-security-policy']).toContain("connect-src 'self';");
    expect(securityHeaders('not a url')['content-security-policy']).toContain("connect-src 'self';");
  });

  it('compresses a script in Brotli or gzip as the browser accepts, and sends it plain otherwise', () => {
    const br = consoleFile(site, 'assets/big-0a1b2c.js', 'gzip, deflate, br, zstd');
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      vary: 'accept-encoding',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(br.isBase64Encoded).toBe(true);
    expect(brotliDecompressSync(Buffer.from(br.body, 'base64')).toString('utf8')).toBe(BIG_SCRIPT);
    expect(Buffer.from(br.body, 'base64').length).toBeLessThan(BIG_SCRIPT.length / 4);

    const gzip = consoleFile(site, 'assets/big-0a1b2c.js', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gzip.body, 'base64')).toString('utf8')).toBe(BIG_SCRIPT);

    const plain = consoleFile(site, 'assets/big-0a1b2c.js', 'identity');
    expect(plain).toMatchObject({ body: BIG_SCRIPT, isBase64Encoded: false });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
  });

  it('leaves a small text and a binary file uncompressed', () => {
    expect(consoleFile(site, 'assets/index-abc123.js', 'br')).toMatchObject({ body: 'console.log(1)', isBase64Encoded: false });
    const png = consoleFile(site, 'assets/logo-def456.png', 'br');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(Buffer.from(png.body, 'base64')).toEqual(PNG);
  });
});
