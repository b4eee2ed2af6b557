import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { z } from 'zod/v3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { messagesOf, rand, settledOne, WAIT } from '../support/pipeline.ts';

// Code-first workflows as a new user runs them: an Express app serving @novu/framework 2.13.2
// workflows with strict authentication, synced with the real `novu` CLI against the local API,
// triggered with @novu/api, and observed through the API (inbox messages, email messages, the
// activity feed). The payload schema is zod's (its v3 API: zod-to-json-schema, which the
// framework uses to describe schemas, reads no zod 4 schema).

const run = promisify(execFile);
let api: TestApi;
let env: TestEnv;
let novu: Novu;
let bridge: BridgeApp;
let configDir: string;

const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');

const commentPayload = z.object({
  postTitle: z.string(),
  author: z.string(),
  urgent: z.boolean().default(false),
});

const commentFlow = workflow(
  'comment-flow',
  async ({ step, payload }) => {
    await step.inApp(
      'notify',
      async (controls) => ({ subject: controls.subject, body: `${payload.author} commented`, data: { post: payload.postTitle } }),
      { controlSchema: z.object({ subject: z.string().default('New comment on {{payload.postTitle}}') }) },
    );
    const summary = await step.custom('summarize', async () => ({ summary: `${payload.author} on ${payload.postTitle}` }), {
      outputSchema: z.object({ summary: z.string() }),
    });
    await step.sms('urgent-sms', async () => ({ body: `Urgent: ${payload.postTitle}` }), { skip: () => !payload.urgent });
    await step.email('mail', async () => ({ subject: 'Comment summary', body: `<p>${summary.summary}</p>` }));
  },
  { payloadSchema: commentPayload, name: 'Comment flow', description: 'Tells authors about comments', tags: ['comments'] },
);

const digestFlow = workflow(
  'digest-flow',
  async ({ step }) => {
    const { events } = await step.digest('batch', async () => ({ amount: 5, unit: 'seconds' }));
    await step.email('digest-mail', async () => ({
      subject: `${events.length} new comments`,
      body: `<ul>${events.map((e) => `<li>${String(e.payload.postTitle)}</li>`).join('')}</ul>`,
    }));
  },
  { payloadSchema: z.object({ postTitle: z.string() }) },
);

const removable = workflow('removable-flow', async ({ step }) => {
  await step.inApp('hello', async () => ({ body: 'Hello' }));
});

async function sync(bridgeUrl: string): Promise<{ stdout: string; stderr: string }> {
  return run(
    process.execPath,
    ['node_modules/novu/dist/src/index.js', 'sync', '--bridge-url', bridgeUrl, '--api-url', api.url, '--secret-key', env.apiKey],
    {
      env: { ...process.env, ANALYTICS_ENABLED: 'false', XDG_CONFIG_HOME: configDir, NODE_ENV: 'production' },
      timeout: 60_000,
    },
  );
}

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  configDir = mkdtempSync(join(tmpdir(), 'novu-cli-'));
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const res = await fetch(input, init);
      return new Response(debrand(await res.text()), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url, httpClient });
  bridge = await startBridgeApp(env.apiKey, [commentFlow, digestFlow, removable]);
  await sync(bridge.url);
}, 90_000);
afterAll(async () => {
  await bridge?.close();
  await api?.close();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

describe('npx novu sync', () => {
  it('stores the discovered workflows as code-first ones, with their schemas, and the bridge URL', async () => {
    const res = await env.client.get('/v2/workflows/comment-flow');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      workflowId: 'comment-flow',
      name: 'Comment flow',
      description: 'Tells authors about comments',
      tags: ['comments'],
      origin: 'external',
      active: true,
      payloadSchema: { type: 'object', properties: { postTitle: { type: 'string' } }, required: ['postTitle', 'author'] },
    });
    expect(res.body.steps.map((s: any) => [s.stepId, s.type, s.origin])).toEqual([
      ['notify', 'in_app', 'external'],
      ['summarize', 'custom', 'external'],
      ['urgent-sms', 'sms', 'external'],
      ['mail', 'email', 'external'],
    ]);
    expect(res.body.steps[0].controls.dataSchema).toMatchObject({
      type: 'object',
      properties: { subject: { type: 'string', default: 'New comment on {{payload.postTitle}}' } },
    });
    const me = await env.client.get('/v1/environments/me');
    expect(me.body.data.bridge).toEqual({ url: bridge.url });
    // The discover was signed: strict authentication let it through.
    expect(bridge.calls.find((c) => c.action === 'discover' && c.signed)?.status).toBe(200);
  });

  it('keeps step ids across syncs, deletes what the code no longer declares, and refuses a dashboard workflowId', async () => {
    const before = (await env.client.get('/v2/workflows/comment-flow')).body.steps.map((s: any) => s._id);
    const other = workflow('only-here', async ({ step }) => {
      await step.inApp('x', async () => ({ body: 'x' }));
    });
    bridge.setWorkflows([commentFlow, digestFlow, other]);
    try {
      await sync(bridge.url);
      const after = (await env.client.get('/v2/workflows/comment-flow')).body.steps.map((s: any) => s._id);
      expect(after).toEqual(before);
      expect((await env.client.get('/v2/workflows/removable-flow')).status).toBe(404);
      const late = await env.client.post('/v1/events/trigger', { name: 'removable-flow', to: 'someone', payload: {} });
      expect(late.status).toBe(422);
      expect(late.body.message).toBe('workflow_not_found');

      // A dashboard workflow under the same id: the reference's 400, and nothing changes.
      await env.client.post('/v2/workflows', { name: 'Dash', workflowId: 'dash-flow', steps: [] });
      bridge.setWorkflows([
        commentFlow,
        digestFlow,
        other,
        workflow('dash-flow', async ({ step }) => void (await step.inApp('y', async () => ({ body: 'y' })))),
      ]);
      const refused = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Workflow dash-flow was already created in Dashboard. Please use another workflowId.');
      expect((await env.client.get('/v2/workflows/only-here')).status).toBe(200);
      await env.client.delete('/v2/workflows/dash-flow');
    } finally {
      bridge.setWorkflows([commentFlow, digestFlow, removable]);
      await sync(bridge.url);
    }
    expect((await env.client.get('/v2/workflows/only-here')).status).toBe(404);
  }, 60_000);

  it('answers diff, validate and status', async () => {
    const diff = await env.client.post('/v1/bridge/diff', { bridgeUrl: bridge.url });
    expect(diff.status).toBe(201);
    expect(diff.body.data.deleted).toEqual([]);
    expect(diff.body.data.updated.sort()).toEqual(['comment-flow', 'digest-flow', 'removable-flow']);
    const valid = await env.client.post('/v1/bridge/validate', { bridgeUrl: bridge.url });
    expect(valid.body.data).toEqual({ isValid: true });
    const invalid = await env.client.post('/v1/bridge/validate', { bridgeUrl: 'http://127.0.0.1:9/api/novu' });
    expect(invalid.body.data.isValid).toBe(false);
    const status = await env.client.get('/v1/bridge/status');
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'ok', discovered: { workflows: 3 } });
  });
});

describe('executing code-first workflows', () => {
  it('delivers what the bridge returns: the in-app message, the custom output in the email, the skipped step absent', async () => {
    const subscriberId = `cf-${rand()}`;
    const result = await novu.trigger({
      workflowId: 'comment-flow',
      to: { subscriberId, email: `${subscriberId}@example.com`, phone: '+15550100' },
      payload: { postTitle: 'Serverless <b>rocks</b>', author: 'Ada' },
    });
    const transactionId = result.result.transactionId!;
    const notification = await settledOne(env.client, transactionId);
    expect(notification.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['notify', 'completed'],
      ['summarize', 'completed'],
      ['urgent-sms', 'skipped'],
      ['mail', 'completed'],
    ]);
    const [inApp] = await messagesOf(env.client, subscriberId);
    // The control default, rendered by the framework with the payload, and sanitized.
    expect(inApp.subject).toBe('New comment on Serverless <b>rocks</b>');
    expect(inApp.content).toBe('Ada commented');
    expect(inApp.data).toEqual({ post: 'Serverless <b>rocks</b>' });
    const [mail] = await messagesOf(env.client, subscriberId, 'email');
    expect(mail.subject).toBe('Comment summary');
    expect(mail.content).toContain('Ada on Serverless');
    expect(await messagesOf(env.client, subscriberId, 'sms')).toEqual([]);
    const custom = notification.jobs[1];
    expect(JSON.stringify(custom.executionDetails)).toContain('Ada on Serverless');
    const executed = notification.jobs[0].executionDetails.find((d: any) => d.detail === 'Step executed by the bridge');
    expect(executed.source).toBe('Internal');
    expect(JSON.parse(executed.raw)).toMatchObject({ status: 200 });
    // Every call to the bridge was signed; strict authentication refuses one that is not.
    expect(bridge.calls.filter((c) => c.action === 'execute').every((c) => c.signed && c.status === 200)).toBe(true);
    const unsigned = await fetch(`${bridge.url}?action=execute&workflowId=comment-flow&stepId=notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payload: { postTitle: 'x', author: 'y' }, controls: {}, state: [], subscriber: { subscriberId } }),
    });
    expect(unsigned.status).toBe(401);
  });

  it('digests three events for five seconds and the email after lists all three', async () => {
    const subscriberId = `dg-${rand()}`;
    const to = { subscriberId, email: `${subscriberId}@example.com` };
    const ids: string[] = [];
    for (const postTitle of ['First', 'Second', 'Third']) {
      ids.push((await novu.trigger({ workflowId: 'digest-flow', to, payload: { postTitle } })).result.transactionId!);
    }
    const mail = await vi.waitFor(async () => {
      const found = await messagesOf(env.client, subscriberId, 'email');
      expect(found).toHaveLength(1);
      return found[0];
    }, WAIT);
    expect(mail.subject).toBe('3 new comments');
    // Which trigger opened the window depends on the order the consumer took them in.
    for (const title of ['First', 'Second', 'Third']) expect(mail.content).toContain(`<li>${title}</li>`);
    expect(ids).toHaveLength(3);
  });

  it('fails the step with the bridge message on an invalid payload, sending nothing', async () => {
    const subscriberId = `bad-${rand()}`;
    const res = await env.client.post('/v1/events/trigger', { name: 'comment-flow', to: subscriberId, payload: { postTitle: 1 } });
    expect(res.status).toBe(201);
    const notification = await settledOne(env.client, res.body.data.transactionId);
    expect(notification.jobs[0].status).toBe('failed');
    const failed = notification.jobs[0].executionDetails.find((d: any) => d.status === 'Failed');
    expect(failed.detail).toMatch(/^Bridge execution failed: Workflow with id: `comment-flow` has invalid `payload`/);
    // A 4xx is the bridge's word: not tried again (each step of the event asked once, each refused).
    expect(JSON.parse(failed.raw)).toMatchObject({ status: 400, code: 'ExecutionEventPayloadInvalidError', attempts: 1 });
    const asked = bridge.calls.filter((c) => c.action === 'execute' && c.body?.subscriber?.subscriberId === subscriberId);
    expect(asked.map((c) => [c.stepId, c.status])).toEqual(notification.jobs.map((j: any) => [j.step.name, 400]));
    expect(await messagesOf(env.client, subscriberId)).toEqual([]);
  });

  it.each([500, 408, 429])('retries a bridge answering %i, then delivers', async (status) => {
    let failures = 1;
    bridge.setFault(async (req, res) => {
      if (req.query.action !== 'execute' || failures === 0) return false;
      failures--;
      res.status(status).json({ message: 'temporarily unavailable', code: 'BridgeError' });
      return true;
    });
    try {
      const subscriberId = `retry-${rand()}`;
      const res = await env.client.post('/v1/events/trigger', { name: 'removable-flow', to: subscriberId, payload: {} });
      const notification = await settledOne(env.client, res.body.data.transactionId);
      expect(notification.jobs[0].status).toBe('completed');
      const executed = notification.jobs[0].executionDetails.find((d: any) => d.detail === 'Step executed by the bridge');
      expect(JSON.parse(executed.raw)).toMatchObject({ status: 200, attempts: 2 });
      expect((await messagesOf(env.client, subscriberId))[0].content).toBe('Hello');
    } finally {
      bridge.setFault(undefined);
    }
  });

  it('fails the step when the bridge is slow past the timeout on every attempt', async () => {
    bridge.setFault(async (req) => {
      if (req.query.action !== 'execute') return false;
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      return false;
    });
    try {
      const subscriberId = `slow-${rand()}`;
      const res = await env.client.post('/v1/events/trigger', { name: 'removable-flow', to: subscriberId, payload: {} });
      const notification = await vi.waitFor(
        async () => {
          const n = await settledOne(env.client, res.body.data.transactionId);
          return n;
        },
        { timeout: 60_000, interval: 500 },
      );
      expect(notification.jobs[0].status).toBe('failed');
      expect(notification.jobs[0].executionDetails.at(-1).detail).toMatch(
        /^Bridge execution failed: The bridge could not be reached: No answer within/,
      );
      expect(await messagesOf(env.client, subscriberId)).toEqual([]);
    } finally {
      bridge.setFault(undefined);
    }
  }, 90_000);

  it('fails the step when the bridge is down, after its retries', async () => {
    const subscriberId = `down-${rand()}`;
    // The trigger's own bridgeUrl (stateless mode) points where nothing listens.
    const res = await env.client.post('/v1/events/trigger', {
      name: 'removable-flow',
      to: subscriberId,
      payload: {},
      bridgeUrl: 'http://127.0.0.1:9/api/novu',
    });
    const notification = await settledOne(env.client, res.body.data.transactionId);
    expect(notification.jobs[0].status).toBe('failed');
    const failed = notification.jobs[0].executionDetails.at(-1);
    expect(failed.detail).toMatch(/^Bridge execution failed: The bridge could not be reached/);
    expect(JSON.parse(failed.raw)).toMatchObject({ attempts: 3 });
    expect(await messagesOf(env.client, subscriberId)).toEqual([]);
  });
});

describe("a trigger's own bridge URL", () => {
  it("runs the event's steps through that bridge instead of the environment's", async () => {
    const preview = workflow('removable-flow', async ({ step }) => {
      await step.inApp('hello', async () => ({ body: 'Hello from the branch deploy' }));
    });
    const other = await startBridgeApp(env.apiKey, [preview]);
    try {
      const subscriberId = `stateless-${rand()}`;
      const result = await novu.trigger({ workflowId: 'removable-flow', to: subscriberId, payload: {}, bridgeUrl: other.url });
      const notification = await settledOne(env.client, result.result.transactionId!);
      expect(notification.jobs[0].status).toBe('completed');
      expect((await messagesOf(env.client, subscriberId))[0].content).toBe('Hello from the branch deploy');
      expect(other.calls.some((c) => c.action === 'execute' && c.signed && c.status === 200)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('step retrieve and preview through @novu/api', () => {
  it("retrieves a code-first step with its code's control schema", async () => {
    const { result } = await novu.workflows.steps.retrieve('comment-flow', 'notify');
    expect(result).toMatchObject({ stepId: 'notify', type: 'in_app', origin: 'external', workflowId: 'comment-flow' });
    expect(result.controls.dataSchema).toMatchObject({ properties: { subject: { default: 'New comment on {{payload.postTitle}}' } } });
  });

  it("previews a code-first step with the bridge's own preview, and a dashboard step with the service's renderer", async () => {
    const external = await novu.workflows.steps.generatePreview({
      workflowId: 'comment-flow',
      stepId: 'notify',
      generatePreviewRequestDto: { previewPayload: { payload: { postTitle: 'Drafts', author: 'Grace' } } },
    });
    expect(external.result.result).toMatchObject({
      type: 'in_app',
      preview: { subject: 'New comment on Drafts', body: 'Grace commented' },
    });
    expect(bridge.calls.some((c) => c.action === 'preview' && c.signed && c.status === 200)).toBe(true);

    const dashboardId = `dash-${rand()}`;
    const created = await env.client.post('/v2/workflows', {
      name: dashboardId,
      workflowId: dashboardId,
      steps: [
        {
          name: 'Mail',
          stepId: 'mail',
          type: 'email',
          controlValues: { subject: 'Hi {{payload.who}}', body: '<p>Dear {{payload.who}}</p>' },
        },
      ],
    });
    expect(created.status).toBe(201);
    const dashboard = await novu.workflows.steps.generatePreview({
      workflowId: dashboardId,
      stepId: 'mail',
      generatePreviewRequestDto: { previewPayload: { payload: { who: 'Ada' } } },
    });
    expect(dashboard.result.result).toMatchObject({ type: 'email', preview: { subject: 'Hi Ada' } });
    expect((dashboard.result.result as { preview: { body: string } }).preview.body).toContain('<p>Dear Ada</p>');
  });
});

describe('control values of a code-first step', () => {
  it("are checked against the code's schema, kept across a sync, and sent with the next execute", async () => {
    const bad = await env.client.put('/v1/bridge/controls/comment-flow/notify', { variables: { subject: 5 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['variables.subject'].messages[0]).toMatch(/string/);

    const set = await env.client.put('/v1/bridge/controls/comment-flow/notify', {
      variables: { subject: 'Edited: {{payload.postTitle}}' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.controls.values).toEqual({ subject: 'Edited: {{payload.postTitle}}' });
    try {
      await sync(bridge.url);
      const subscriberId = `ctl-${rand()}`;
      const result = await novu.trigger({
        workflowId: 'comment-flow',
        to: { subscriberId, email: `${subscriberId}@example.com` },
        payload: { postTitle: 'Limits', author: 'Lin' },
      });
      await settledOne(env.client, result.result.transactionId!);
      expect((await messagesOf(env.client, subscriberId))[0].subject).toBe('Edited: Limits');
    } finally {
      await env.client.put('/v1/bridge/controls/comment-flow/notify', { variables: {} });
    }
  }, 60_000);
});
