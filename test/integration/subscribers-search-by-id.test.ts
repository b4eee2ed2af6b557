import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestOrg } from '../support/api.ts';

// GET /v2/subscribers?subscriberId=: the one subscriber of that id (matched exactly, as the
// reference does), still narrowed by the other filters, through the SDK's search operation.

let api: TestApi;
let org: TestOrg;
let novu: Novu;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  novu = new Novu({ secretKey: org.dev.apiKey, serverURL: api.url });
  for (const [subscriberId, firstName, email] of [
    ['ada', 'Ada', 'ada@example.com'],
    ['ada-2', 'Ada', 'ada2@example.com'],
    ['grace', 'Grace', 'grace@example.com'],
  ]) {
    expect((await org.dev.client.post('/v2/subscribers', { subscriberId, firstName, email })).status).toBe(201);
  }
}, 120_000);
afterAll(() => api.close());

const ids = async (query: Record<string, string>) =>
  (await novu.subscribers.search(query)).result.data.map((subscriber) => subscriber.subscriberId);

describe('searching subscribers by subscriberId', () => {
  it('finds exactly the subscriber of that id, not those whose id merely starts with it', async () => {
    expect(await ids({ subscriberId: 'ada' })).toEqual(['ada']);
    const page = (await novu.subscribers.search({ subscriberId: 'ada' })).result;
    expect(page).toMatchObject({ next: null, previous: null, totalCount: 1 });
    expect(await ids({ subscriberId: 'ad' })).toEqual([]);
  });

  it('applies the other filters to it', async () => {
    expect(await ids({ subscriberId: 'ada', email: 'ada@example.com' })).toEqual(['ada']);
    expect(await ids({ subscriberId: 'ada', email: 'grace@example.com' })).toEqual([]);
    expect(await ids({ subscriberId: 'grace', name: 'GRA' })).toEqual(['grace']);
    expect(await ids({ subscriberId: 'grace', name: 'ada' })).toEqual([]);
  });

  it('never finds another environment’s subscriber', async () => {
    const prod = new Novu({ secretKey: org.prod.apiKey, serverURL: api.url });
    expect((await prod.subscribers.search({ subscriberId: 'ada' })).result.data).toEqual([]);
  });

  it('refuses an empty subscriberId with 422', async () => {
    expect((await org.dev.client.get('/v2/subscribers?subscriberId=')).status).toBe(422);
  });
});
