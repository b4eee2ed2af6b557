import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { createWorkflow, rand, settled, trigger, WAIT } from '../support/pipeline.ts';

// The activity feed as a user of the reference's server SDK (`@novu/api`) reads it: the SDK
// validates every response against its schemas and throws on a value they do not allow.
// The interface names the reference's own brand `svc` (provider ids such as `svc`, `svc-email`,
// origins such as `svc-cloud`); the SDK knows them as `novu…`. Its fetcher maps that one word
// back, and nothing else, so what is checked is everything the service answers.

let api: LocalApi;
let env: TestEnv;
let novu: Novu;

const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');

beforeAll(async () => {
  api = await startTestApi();
  const org = await createTestOrg(api.url);
  env = org.dev;
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const res = await fetch(input, init);
      return new Response(debrand(await res.text()), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url, httpClient });
});
afterAll(() => api.close());

describe('activity through @novu/api', () => {
  it('lists a workflow with action steps without a validation error, every job naming its provider', async () => {
    const workflowId = await createWorkflow(env.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello {{payload.who}}' } },
      { name: 'Digest', stepId: 'digest', type: 'digest', controlValues: { amount: 1, unit: 'seconds' } },
      { name: 'Delay', stepId: 'delay', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'seconds' } },
      {
        name: 'Throttle',
        stepId: 'throttle',
        type: 'throttle',
        controlValues: { type: 'fixed', amount: 1, unit: 'minutes', threshold: 10 },
      },
      { name: 'Custom', stepId: 'custom', type: 'custom', controlValues: { custom: { a: 1 } } },
      { name: 'Email', stepId: 'email', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello {{payload.who}}</p>' } },
    ]);
    const subscriberId = `sdk-${rand()}`;
    const transactionId = await trigger(env.client, workflowId, { subscriberId, email: 'ada@example.com' }, { who: 'Ada' });
    await settled(env.client, transactionId);

    const page = await novu.notifications.list({ transactionId });
    const [item] = page.result.data;
    expect(item?.transactionId).toBe(transactionId);
    const providers = Object.fromEntries(item!.jobs!.map((job) => [job.type, job.providerId]));
    // The service's own name for steps no provider has a part in; the demo email provider for the email step.
    expect(providers).toEqual({ in_app: 'novu', digest: 'novu', delay: 'novu', throttle: 'novu', custom: 'novu', email: 'novu-email' });
  });

  it('names, before a channel step runs, the provider it would use: the channel primary', async () => {
    const workflowId = await createWorkflow(env.client, [
      { name: 'Delay', stepId: 'delay', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
      { name: 'SMS', stepId: 'sms', type: 'sms', controlValues: { body: 'Hi' } },
    ]);
    const transactionId = await trigger(env.client, workflowId, { subscriberId: `sdk-${rand()}`, phone: '+15550100' });
    const jobs = await vi.waitFor(async () => {
      const { result } = await novu.notifications.list({ transactionId });
      const found = result.data[0]?.jobs ?? [];
      expect(found[0]?.status).toBe('delayed');
      return found;
    }, WAIT);
    expect(jobs.map((job) => [job.type, job.status, job.providerId])).toEqual([
      ['delay', 'delayed', 'novu'],
      ['sms', 'pending', 'novu-sms'],
    ]);
    expect((await env.client.delete(`/v1/events/trigger/${transactionId}`)).status).toBe(200);
  });
});
