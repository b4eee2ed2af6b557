import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { z } from 'zod/v3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { messagesOf, rand, settledOne, WAIT } from '../support/pipeline.ts';

// A code-first workflow changed through @novu/api's `workflows.update` (PUT /v2/workflows/{id}):
// its steps' control values are checked against the control schemas its code declared and kept
// as sent, and its steps themselves stay its code's. And a throttle step's output, sent to the
// bridge in the state of the steps after it, is exactly the framework's throttle result. The
// bridge is an @novu/framework 2.13.2 app with strict authentication, synced as `npx novu sync`
// does (POST /v1/bridge/sync).

let api: TestApi;
let env: TestEnv;
let novu: Novu;
let bridge: BridgeApp;

const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');

const greetFlow = workflow('greet-flow', async ({ step }) => {
  await step.inApp('greet', async (controls) => ({ body: `${controls.greeting}! ${controls.body}` }), {
    controlSchema: z.object({ greeting: z.string().default('Hello'), body: z.string().default('Welcome') }),
  });
});

const throttleFlow = workflow('throttled-flow', async ({ step }) => {
  const limit = await step.throttle('limit', async () => ({ type: 'fixed' as const, amount: 1, unit: 'minutes' as const, threshold: 1 }));
  await step.inApp('after', async () => ({
    body: `Run ${limit.executionCount} of ${limit.threshold} in the window from ${limit.windowStart ? 'its start' : 'nowhere'}`,
  }));
});

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const res = await fetch(input, init);
      return new Response(debrand(await res.text()), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url, httpClient });
  bridge = await startBridgeApp(env.apiKey, [greetFlow, throttleFlow]);
  const synced = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
  expect(synced.status, JSON.stringify(synced.body)).toBe(201);
}, 90_000);
afterAll(async () => {
  await bridge?.close();
  await api?.close();
});

const greetStep = (controlValues: Record<string, unknown>) => ({ name: 'greet', stepId: 'greet', type: 'in_app' as const, controlValues });
const update = (controlValues: Record<string, unknown>) =>
  novu.workflows.update({ name: 'Greet flow', active: true, preferences: {}, steps: [greetStep(controlValues)] }, 'greet-flow');

/** Triggers greet-flow for a new subscriber: the in-app message's content. */
async function greeting(): Promise<string> {
  const subscriberId = `upd-${rand()}`;
  const result = await novu.trigger({ workflowId: 'greet-flow', to: { subscriberId } });
  await settledOne(env.client, result.result.transactionId!);
  return (await messagesOf(env.client, subscriberId))[0].content;
}

describe('workflows.update of a code-first workflow', () => {
  it("keeps control values its code's schema takes, and they reach the bridge", async () => {
    // @novu/api sends an in-app step's `body` with its own `disableOutputSanitization: false`,
    // a setting the code's step options hold: not a control of the code, and not refused.
    const updated = await update({ body: 'Edited' });
    expect(updated.result.origin).toBe('external');
    expect((await novu.workflows.steps.retrieve('greet-flow', 'greet')).result.controlValues).toEqual({ body: 'Edited' });
    expect(await greeting()).toBe('Hello! Edited');

    // A control only the code declares: @novu/api drops keys its in-app model lacks, so sent as JSON.
    const raw = await env.client.put('/v2/workflows/greet-flow', { name: 'Greet flow', steps: [greetStep({ greeting: 'Howdy' })] });
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    expect(raw.body.steps[0].controls.values).toEqual({ greeting: 'Howdy' });
    expect(await greeting()).toBe('Howdy! Welcome');
  }, 60_000);

  it("refuses a value its code's schema refuses, naming it, and changes nothing", async () => {
    const error = await update({ body: 5 }).catch((e) => e);
    expect(error.statusCode).toBe(422);
    expect(JSON.parse(error.body).errors['steps.0.controlValues.body'].messages[0]).toMatch(/string/);

    for (const [values, field] of [
      [{ greeting: 'Hi', colour: 'red' }, 'colour'],
      [{ greeting: 'Hi', disableOutputSanitization: true }, 'disableOutputSanitization'],
    ] as const) {
      const res = await env.client.put('/v2/workflows/greet-flow', { name: 'Greet flow', steps: [greetStep(values)] });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([`steps.0.controlValues.${field}`]);
    }
    expect((await novu.workflows.steps.retrieve('greet-flow', 'greet')).result.controlValues).toEqual({ greeting: 'Howdy' });
  });

  it('refuses steps other than its code declares: only a sync changes them', async () => {
    const extra = { name: 'Extra', stepId: 'extra', type: 'sms' as const, controlValues: { body: 'Hi' } };
    const added = await novu.workflows
      .update({ name: 'Greet flow', active: true, preferences: {}, steps: [greetStep({}), extra] }, 'greet-flow')
      .catch((e) => e);
    expect(added.statusCode).toBe(400);
    expect(JSON.parse(added.body).message).toMatch(/come from its code: send greet \(in_app\)/);
    const retyped = await novu.workflows
      .update({ name: 'Greet flow', active: true, preferences: {}, steps: [{ ...extra, stepId: 'greet' }] }, 'greet-flow')
      .catch((e) => e);
    expect(retyped.statusCode).toBe(400);
  });
});

describe('a code-first throttle step', () => {
  it("gives the step after it the framework's throttle result, and throttles the second run in its window", async () => {
    const subscriberId = `thr-${rand()}`;
    const first = await novu.trigger({ workflowId: 'throttled-flow', to: { subscriberId } });
    const settled = await settledOne(env.client, first.result.transactionId!);
    expect(settled.jobs.map((j: { status: string }) => j.status)).toEqual(['completed', 'completed']);
    const [message] = await messagesOf(env.client, subscriberId);
    expect(message.content).toBe('Run 1 of 1 in the window from its start');

    const second = await novu.trigger({ workflowId: 'throttled-flow', to: { subscriberId } });
    const throttled = await settledOne(env.client, second.result.transactionId!);
    expect(throttled.jobs.map((j: { status: string }) => j.status)).toEqual(['skipped', 'skipped']);
    await vi.waitFor(async () => expect(await messagesOf(env.client, subscriberId)).toHaveLength(1), WAIT);
    // The bridge was asked for the step after the throttle once, with the throttle in its state.
    expect(bridge.calls.filter((c) => c.workflowId === 'throttled-flow' && c.stepId === 'after' && c.action === 'execute')).toEqual([
      expect.objectContaining({ status: 200 }),
    ]);
  }, 60_000);
});
