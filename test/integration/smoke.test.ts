import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { apiClient, newOrganization, startTestApi } from '../support/api.ts';

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('smoke', () => {
  it('lists the starter integrations of a new organization', async () => {
    const org = await newOrganization();
    const res = await apiClient(api.url, org.environments[0]!.apiKey).get('/v1/integrations');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(6);
  });
});
