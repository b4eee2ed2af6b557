import { Novu } from '@novu/api';
import { ValidationErrorDto } from '@novu/api/models/errors/validationerrordto.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_RENDER_LIMIT_MS } from '#lib/workflows/templates.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestApi, type TestEnv } from '../support/api.ts';
import { createWorkflow, rand, settledOne, trigger } from '../support/pipeline.ts';

// A template that would render without end (a huge range, loops multiplying a payload list) is
// stopped by the render limits of the one Liquid module (lib/workflows/templates.ts): the editor's
// preview answers a 422 naming the control at once, and a delivered step fails its job with the
// reason, where without limits both would run until the Lambda's timeout.

let api: TestApi;
let env: TestEnv;
let client: ApiClient;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  client = env.client;
});
afterAll(() => api.close());

const HUGE_RANGE = '{% for x in (1..100000000) %}x{% endfor %}';
// Within the memory limit (a payload list costs nothing to loop over) but 27 million iterations.
const CUBED_LOOP =
  '{% for a in payload.items %}{% for b in payload.items %}{% for c in payload.items %}x{% endfor %}{% endfor %}{% endfor %}';
const items = Array.from({ length: 300 }, (_, i) => i);

// Unlimited, the loop renders for about 25 s (a million iterations a second) and the range holds
// 100 million numbers: the limit's 422 says they were stopped (no wall time is asserted).

describe('step preview', () => {
  it('answers 422 naming the control whose template goes over a limit', async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: HUGE_RANGE } },
    ]);

    // Content within the limits previews as before (and the handler is warm for the timing below).
    const fine = await client.post(`/v2/workflows/${workflowId}/step/inbox/preview`, {
      controlValues: { body: '{% for a in payload.items limit: 3 %}{{ a }}{% endfor %}' },
      previewPayload: { payload: { items } },
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    expect(fine.body.result.preview.body).toBe('012');

    const sent = await client.post(`/v2/workflows/${workflowId}/step/inbox/preview`, {
      controlValues: { body: CUBED_LOOP },
      previewPayload: { payload: { items } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(422);
    expect(sent.body).toMatchObject({ statusCode: 422, message: 'Validation Error' });
    expect(sent.body.errors['controlValues.body']).toEqual({
      messages: [`Template took too long to render: over ${TEMPLATE_RENDER_LIMIT_MS} ms`],
      value: CUBED_LOOP,
    });

    // The stored control, previewed through the reference's SDK.
    const novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
    const error = await novu.workflows.steps.generatePreview({ workflowId, stepId: 'mail', generatePreviewRequestDto: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationErrorDto);
    expect((error as ValidationErrorDto).errors['controlValues.body']?.messages?.[0]).toMatch(/^Template builds too much to render/);
  });

  it('answers the same 422 for a step not saved yet (the draft preview)', async () => {
    const res = await client.post('/v2/workflows/steps/preview', {
      type: 'sms',
      controlValues: { body: CUBED_LOOP },
      previewPayload: { payload: { items } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors['controlValues.body'].messages).toEqual([
      `Template took too long to render: over ${TEMPLATE_RENDER_LIMIT_MS} ms`,
    ]);
  });
});

describe('layout preview', () => {
  it('answers 422 naming the body whose template goes over a limit', async () => {
    const layoutId = `layout-${rand()}`;
    const created = await client.post('/v2/layouts', {
      layoutId,
      name: 'Brand',
      controlValues: { email: { editorType: 'html', body: '<html><body>{{content}}</body></html>' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const body = `<html><body>{{content}}${HUGE_RANGE}</body></html>`;
    const res = await client.post(`/v2/layouts/${layoutId}/preview`, { controlValues: { email: { editorType: 'html', body } } });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors['controlValues.email.body']).toEqual({
      messages: [expect.stringMatching(/^Template builds too much to render/)],
      value: body,
    });
  });
});

describe('delivery', () => {
  it('fails the job with the reason in its execution details', async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: CUBED_LOOP } },
    ]);
    const transactionId = await trigger(client, workflowId, { subscriberId: `sub-${rand()}` }, { items });
    const notification = await settledOne(client, transactionId);
    const [job] = notification.jobs;
    expect(job.status).toBe('failed');
    const failed = job.executionDetails.find((d: any) => d.detail === 'Message content could not be generated');
    expect(failed).toMatchObject({ status: 'Failed' });
    expect(JSON.parse(failed.raw)).toEqual({ error: `Template took too long to render: over ${TEMPLATE_RENDER_LIMIT_MS} ms` });
  });
});
