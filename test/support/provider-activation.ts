import { afterAll, beforeAll, expect } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { Channel } from '#lib/integrations/catalogue.ts';
import { createTestOrg, startTestApi, type ApiClient } from './api.ts';
import { rand } from './pipeline.ts';

// What the provider suites ask of each provider's integration through the API: it can be made
// active with valid credentials, and malformed ones are refused with the fields at fault.

/**
 * For the enclosing describe: the API in this worker and a client of a new organization's
 * development environment (usable once the describe's tests run).
 */
export function clientForSuite(): ApiClient {
  let api: LocalApi | undefined;
  let client: ApiClient | undefined;
  beforeAll(async () => {
    api = await startTestApi();
    client = (await createTestOrg(api.url)).dev.client;
  });
  afterAll(() => api?.close());
  return new Proxy({} as ApiClient, {
    get: (_target, key) => {
      if (!client) throw new Error('the API starts before the tests');
      return Reflect.get(client, key);
    },
  });
}

export interface ActivationCase {
  providerId: string;
  valid: Record<string, unknown>;
  /** Omitted for a provider that takes no credentials (nothing can be malformed). */
  malformed?: Record<string, unknown>;
  /** The 422's error paths (its `errors` keys) for `malformed`, sorted. */
  errors?: string[];
}

/**
 * 201 and active with `valid`; 422 listing `errors` with `malformed`, and nothing saved. `common`
 * (e.g. a sender every email provider needs) is added to both sets of credentials.
 */
export async function expectActivation(
  client: ApiClient,
  channel: Channel,
  { providerId, valid, malformed, errors = [] }: ActivationCase,
  common: Record<string, unknown> = {},
): Promise<void> {
  const created = await client.post('/v1/integrations', { providerId, channel, active: true, credentials: { ...valid, ...common } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.data).toMatchObject({ providerId, active: true });
  if (!malformed) return;
  const identifier = `bad-${providerId}-${rand()}`;
  const refused = await client.post('/v1/integrations', {
    providerId,
    channel,
    active: true,
    identifier,
    credentials: { ...malformed, ...common },
  });
  expect(refused.status, JSON.stringify(refused.body)).toBe(422);
  expect(Object.keys(refused.body.errors).sort()).toEqual(errors);
  const listed = (await client.get('/v1/integrations')).body as { identifier: string }[];
  expect(listed.some((i) => i.identifier === identifier)).toBe(false);
}

/** The Warning header of a `check: true` answer for a provider that has no connection check. */
export const uncheckedWarning = (providerId: string): string =>
  `299 - "${providerId} has no call that tests credentials without sending anything: they were not checked"`;
