import { optional, providerBaseUrlEnv } from '../config.ts';

// Each provider's API origin can be replaced (a regional endpoint, a local test server) by the
// environment variable PROVIDER_BASE_URL_<PROVIDER ID> (lib/config.ts). Read at each send, so a
// change applies without a restart. Providers whose URL the user gives (webhooks) do not use it.

/** The provider's origin (no trailing slash): the override if set, else `fallback`. */
export function providerBaseUrl(providerId: string, fallback: string): string {
  const override = optional(providerBaseUrlEnv(providerId))?.trim();
  return (override || fallback).replace(/\/+$/, '');
}

// Providers whose catalogue entry or users may name an endpoint per integration (Infobip's account
// URL, Mailgun's EU region, a proxy, a test server) take the integration's `baseUrl` credential
// first, then the environment variable above, then their public endpoint. A value without a
// scheme means https (Infobip hands out bare host names).

/** The integration's `baseUrl`, else `providerBaseUrl(providerId, publicEndpoint)`. */
export function baseUrlOf(providerId: string, credentials: Record<string, unknown>, publicEndpoint: string): string {
  const own = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
  return withScheme(own || providerBaseUrl(providerId, publicEndpoint)).replace(/\/+$/, '');
}

/** Like `baseUrlOf`, but undefined when nothing overrides the endpoint (SDK clients find their own). */
export function endpointOverride(providerId: string, credentials: Record<string, unknown>): string | undefined {
  const url = baseUrlOf(providerId, credentials, '');
  return url === '' ? undefined : url;
}

export function withScheme(url: string): string {
  return url === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
}
