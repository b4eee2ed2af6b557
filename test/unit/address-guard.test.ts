import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#lib/config.ts';
import { assertAllowedHost, guardedLookupWith, isForbiddenAddress, type Resolve } from '#lib/net/address-guard.ts';
import { guardedPost } from '#lib/net/guarded-request.ts';
import { awsClientConfig } from '#lib/providers/aws.ts';
import { checkSmtpConnection } from '#lib/providers/email/smtp.ts';
import { callProvider } from '#lib/providers/http.ts';
import { ProviderError } from '#lib/providers/provider.ts';

// The SSRF guard (lib/net/address-guard.ts): refused where the name resolves (the connection's
// own lookup), so the address checked is the address connected to; allowed only by the setting.

const NAMES: Record<string, LookupAddress[]> = {
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'runtime-api.test': [{ address: '169.254.100.1', family: 4 }],
  'ipv6-loopback.test': [{ address: '::1', family: 6 }],
  'private.test': [{ address: '10.1.2.3', family: 4 }],
  'ula.test': [{ address: 'fd12:3456::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:192.168.0.10', family: 6 }],
  // A name with a public and a private address: refused whole, so no retry can land on the private one.
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'public.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
  ],
};
const fakeResolve: Resolve = (hostname, _options, callback) => {
  const found = NAMES[hostname];
  if (found) callback(null, found);
  else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};
const lookup = guardedLookupWith(fakeResolve);
const resolveThroughGuard = (hostname: string) =>
  new Promise<{ error?: Error; address?: string }>((resolve) =>
    lookup(hostname, {}, (error, address) => resolve(error ? { error } : { address: address as string })),
  );

const setting = process.env[ENV.allowPrivateNetworks];
afterEach(() => {
  if (setting === undefined) delete process.env[ENV.allowPrivateNetworks];
  else process.env[ENV.allowPrivateNetworks] = setting;
});
const refusePrivate = () => delete process.env[ENV.allowPrivateNetworks];
const allowPrivate = () => (process.env[ENV.allowPrivateNetworks] = 'true');

describe('the address guard', () => {
  it(
    'refuses names that resolve to loopback, link-local (the metadata ' +
      'service, the runtime API), private, unique-local and mapped addresses',
    async () => {
      refusePrivate();
      for (const name of [
        'loopback.test',
        'metadata.test',
        'runtime-api.test',
        'ipv6-loopback.test',
        'private.test',
        'ula.test',
        'mapped.test',
        'mixed.test',
      ]) {
        const { error } = await resolveThroughGuard(name);
        expect(error?.message, name).toMatch(/not allowed/);
      }
      expect(await resolveThroughGuard('public.test')).toEqual({ address: '93.184.216.34' });
    },
  );

  it('allows them all when the setting says so (the local runtime)', async () => {
    allowPrivate();
    expect(await resolveThroughGuard('metadata.test')).toEqual({ address: '169.254.169.254' });
    expect(await resolveThroughGuard('ipv6-loopback.test')).toEqual({ address: '::1' });
  });

  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isForbiddenAddress(address), address).toBe(false);
  });

  it('refuses IP-literal hosts, which never reach a lookup', () => {
    refusePrivate();
    for (const host of ['127.0.0.1', '169.254.169.254', '[::1]', '10.0.0.8'])
      expect(() => assertAllowedHost(host), host).toThrow(/not allowed/);
    expect(() => assertAllowedHost('93.184.216.34')).not.toThrow();
    allowPrivate();
    expect(() => assertAllowedHost('127.0.0.1')).not.toThrow();
  });
});

describe('a guarded POST', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('never connects to this machine unless allowed, by name or by literal', async () => {
    refusePrivate();
    for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]) {
      const outcome = await guardedPost(url, {}, '{}', 2000);
      expect(outcome.status, url).toBeUndefined();
      expect(outcome.excerpt, url).toMatch(/not allowed/);
    }
    expect(hits).toBe(0);
    allowPrivate();
    expect(await guardedPost(`http://localhost:${port}/`, {}, '{}', 2000)).toEqual({ status: 200, excerpt: 'ok' });
    expect(hits).toBe(1);
  });

  it(
    'guards every provider call too (webhook providers, a baseUrl, ' + 'a subscriber webhookUrl): refused for good, never retried',
    async () => {
      refusePrivate();
      const before = hits;
      const refused = await callProvider('Chat webhook', { url: `http://localhost:${port}/hook`, json: { text: 'hi' } }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ProviderError);
      expect((refused as Error).message).toMatch(/was not called: .*not allowed/);
      expect(hits).toBe(before);
      allowPrivate();
      expect((await callProvider('Chat webhook', { url: `http://localhost:${port}/hook`, json: { text: 'hi' } })).status).toBe(200);
      expect(hits).toBe(before + 1);
    },
  );

  it(
    "guards the AWS providers' endpoint when the integration names one " +
      "(its baseUrl): literals at once, names through the agents' lookup",
    () => {
      refusePrivate();
      const credentials = { apiKey: 'AKIA', secretKey: 'secret', region: 'us-east-1' };
      expect(() => awsClientConfig('ses', { ...credentials, baseUrl: 'http://169.254.169.254' }, 1000)).toThrow(/not allowed/);
      const named = awsClientConfig('ses', { ...credentials, baseUrl: 'https://ses.internal.example' }, 1000);
      expect(named.requestHandler.httpsAgent).toBeDefined();
      expect((named.requestHandler.httpsAgent as unknown as { options: { lookup: unknown } }).options.lookup).toBeTypeOf('function');
      // AWS's own endpoint: the SDK's defaults.
      expect(awsClientConfig('ses', credentials, 1000).requestHandler.httpsAgent).toBeUndefined();
    },
  );

  it('guards an SMTP host: refused before any connection, for literals and names', async () => {
    refusePrivate();
    for (const host of ['169.254.169.254', 'localhost']) {
      const refused = await checkSmtpConnection({ providerId: 'nodemailer', credentials: { host, port: 25 } }).catch(
        (error: unknown) => error,
      );
      expect(refused, host).toBeInstanceOf(ProviderError);
      expect((refused as Error).message, host).toMatch(/not allowed/);
    }
  });
});
