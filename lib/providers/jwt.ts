import { sign, type KeyObject } from 'node:crypto';

// Compact JWS signing with node:crypto, for the two grants providers need: RS256 (Google
// service-account OAuth) and ES256 (APNs token auth). A dozen lines do not justify a dependency.

export type JwtAlgorithm = 'RS256' | 'ES256';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signJwt(algorithm: JwtAlgorithm, key: KeyObject, header: Record<string, unknown>, claims: Record<string, unknown>): string {
  const input = `${encode({ ...header, alg: algorithm })}.${encode(claims)}`;
  // JWS wants ECDSA signatures as raw r||s, not the DER node produces by default.
  const signature = sign('sha256', Buffer.from(input), algorithm === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${signature.toString('base64url')}`;
}
