import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ENV, flag } from '../config.ts';

// The SSRF guard of every URL the service calls on a customer's behalf: an address in a
// loopback, private, link-local (the metadata service, 169.254.169.254, and the Lambda runtime
// API), shared, multicast or reserved range is refused. The check runs where the socket gets its
// address — the `lookup` a connection resolves its host with — so a name cannot resolve to a
// public address for a check and to a private one for the connection (DNS rebinding). IP literals
// never reach `lookup`, so the caller checks them first (`assertAllowedHost`). Locally (the local
// runtime and the tests post to 127.0.0.1) ENV.allowPrivateNetworks turns the guard off.

const blocked = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(address, prefix, 'ipv6');

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback or link-local address, which is not allowed`);
  }
}

const privateAllowed = () => flag(ENV.allowPrivateNetworks);

/** An IPv4 address inside an IPv6 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4-free forms). */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether the guard refuses this IP address (whatever the setting). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  return v4 !== undefined ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
}

/** Throws for an IP-literal host the guard refuses (names are checked by `guardedLookup`). */
export function assertAllowedHost(hostname: string): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!privateAllowed() && isIP(host) && isForbiddenAddress(host)) throw new ForbiddenAddressError(host, host);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** How names are resolved: `dns.lookup` with `all: true` (a stand-in in unit tests). */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A drop-in `lookup` for `net.connect`, `http.request` and undici's `connect`: resolves every
 * address of the name and fails the connection if any of them is refused, so no answer order or
 * retry can land on a private one.
 */
export const guardedLookup = guardedLookupWith(dnsLookup as unknown as Resolve);

export function guardedLookupWith(resolve: Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => guard(resolve, hostname, options, callback);
}

function guard(resolve: Resolve, hostname: string, options: LookupOptions, callback: LookupCallback): void {
  resolve(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    if (!privateAllowed()) {
      const refused = list.find((a) => isForbiddenAddress(a.address));
      if (refused) return callback(Object.assign(new ForbiddenAddressError(hostname, refused.address), { errno: 0 }), []);
    }
    if (list.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

/**
 * The one address to connect to for `hostname`, through the guard: for clients that take no
 * `lookup` (nodemailer's SMTP). They are given the address itself, so nothing resolves the name
 * again between this check and the connection; TLS still verifies the name (`servername`).
 */
export function resolveGuarded(hostname: string): Promise<string> {
  assertAllowedHost(hostname);
  if (isIP(hostname.replace(/^\[|\]$/g, ''))) return Promise.resolve(hostname.replace(/^\[|\]$/g, ''));
  return new Promise((resolve, reject) =>
    guardedLookup(hostname, {}, (error, address) => (error ? reject(error) : resolve(address as string))),
  );
}
