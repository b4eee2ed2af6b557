import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestOrg, type ApiClient } from '../support/api.ts';
import { startOwnStack, type OwnStack } from '../support/own-stack.ts';
import * as pipeline from '../support/pipeline.ts';
import { rand, WAIT } from '../support/pipeline.ts';

// No noisy neighbours (docs/architecture.md): one environment's flood of bulk triggers must not
// hold back another environment's single trigger. Bulk work goes to a queue of its own with its
// own consumers (infra/queues.ts, `bulk`), so the quiet environment's message reaches its
// subscriber while the flood is still being delivered, and then the whole flood arrives too.
// This file runs a local stack of its own with one consumer invocation at a time per queue, so
// the flood takes long enough here to be seen unfinished, and emulators of its own: on a loaded
// machine a shared DynamoDB Local, serving three other files' writes beside the flood's, once
// held one bulk request's writes past the function's 30 s (CI, a 500 from middy's timeout).

const FLOOD_REQUESTS = 5;
const EVENTS_PER_REQUEST = 100;
const FLOOD = FLOOD_REQUESTS * EVENTS_PER_REQUEST;

let own: OwnStack;
let noisy: ApiClient;
let quiet: ApiClient;

beforeAll(async () => {
  own = await startOwnStack('neighbours', { consumerConcurrency: 1, ownEmulators: true });
  const org = await createTestOrg(own.stack.apiUrl!);
  // Two organizations' environments would do as well: what counts is that the scopes differ.
  noisy = org.dev.client;
  quiet = org.prod.client;
}, 120_000);
afterAll(() => own?.stop());

const inApp = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello {{payload.n}}' } };

/** The subscriber's in-app messages as the messages list counts them. */
async function deliveredTo(client: ApiClient, subscriberId: string): Promise<number> {
  const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=in_app&limit=1`);
  expect(res.status).toBe(200);
  return res.body.totalCount as number;
}

describe('one environment flooding with bulk triggers', () => {
  it("does not hold back another environment's single trigger, and its own flood is delivered whole", async () => {
    const [floodWorkflow, quietWorkflow] = await Promise.all([
      pipeline.createWorkflow(noisy, [inApp]),
      pipeline.createWorkflow(quiet, [inApp]),
    ]);
    const flooded = `flooded-${rand()}`;
    for (let r = 0; r < FLOOD_REQUESTS; r++) {
      const events = Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({
        name: floodWorkflow,
        to: flooded,
        payload: { n: r * EVENTS_PER_REQUEST + i },
      }));
      const res = await noisy.post('/v1/events/trigger/bulk', { events });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }

    const waiting = `waiting-${rand()}`;
    await pipeline.trigger(quiet, quietWorkflow, waiting, { n: 1 });
    await vi.waitFor(async () => expect(await deliveredTo(quiet, waiting)).toBe(1), WAIT);
    // Delivered while the flood, accepted before it, is still being delivered.
    expect(await deliveredTo(noisy, flooded)).toBeLessThan(FLOOD);

    await vi.waitFor(async () => expect(await deliveredTo(noisy, flooded)).toBe(FLOOD), { timeout: 600_000, interval: 1_000 });
  }, 700_000);
});
