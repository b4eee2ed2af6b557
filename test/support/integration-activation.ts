import { expect } from 'vitest';
import type { Channel } from '#lib/integrations/providers.ts';
import type { ApiClient } from './api.ts';
import { rand } from './pipeline.ts';

// What every deliverable provider's tests assert of its integrations: valid credentials (by the
// catalogue) make an active integration; malformed ones are a 422 naming each refused credential,
// and nothing is saved.

export interface ActivationCase {
  providerId: string;
  valid: Record<string, unknown>;
  malformed: Record<string, unknown>;
  /** The `errors` keys of the 422, sorted. */
  errors: string[];
}

export async function expectActivation(client: ApiClient, channel: Channel, { providerId, valid, malformed, errors }: ActivationCase, common: Record<string, unknown> = {}): Promise<void> {
  const created = await client.post('/v1/integrations', { providerId, channel, active: true, credentials: { ...valid, ...common } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.data).toMatchObject({ providerId, active: true });

  const identifier = `bad-${providerId}-${rand()}`;
  const refused = await client.post('/v1/integrations', { providerId, channel, active: true, identifier, credentials: { ...malformed, ...common } });
  expect(refused.status, JSON.stringify(refused.body)).toBe(422);
  expect(Object.keys(refused.body.errors).sort()).toEqual(errors);
  const listed = (await client.get('/v1/integrations')).body as { identifier: string }[];
  expect(listed.some((i) => i.identifier === identifier)).toBe(false);
}
