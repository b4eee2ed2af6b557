import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startTestApi, type TestApi } from '../support/api.ts';

// POST /v2/workflows/steps/preview: a step not saved yet (the console editor's draft before its
// workflow's first save) rendered as the saved step's preview would be, from the kind, values
// and payload schema the request carries; it writes nothing.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const PAYLOAD_SCHEMA = { type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } } };

describe('POST /v2/workflows/steps/preview', () => {
  it('renders a draft step as the stored step’s preview does, and stores nothing', async () => {
    const { dev } = await createTestOrg(api.url);
    const inApp = {
      subject: 'Order {{payload.orderId}}',
      body: 'Hello {{subscriber.firstName}}',
      avatar: 'https://example.com/a.png',
      primaryAction: { label: 'Open', redirect: { url: '/orders', target: '_self' } },
    };
    const draft = await dev.client.post('/v2/workflows/steps/preview', {
      type: 'in_app',
      controlValues: inApp,
      payloadSchema: PAYLOAD_SCHEMA,
      previewPayload: { subscriber: { firstName: 'Ada' } },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body.result).toEqual({
      type: 'in_app',
      preview: { subject: 'Order A-1', body: 'Hello Ada', avatar: 'https://example.com/a.png', primaryAction: inApp.primaryAction },
    });
    expect(draft.body.previewPayloadExample.payload).toEqual({ orderId: 'A-1' });
    expect(draft.body.schema).toEqual(PAYLOAD_SCHEMA);

    // The same step saved previews the same.
    const saved = await dev.client.post('/v2/workflows', {
      name: 'Saved',
      payloadSchema: PAYLOAD_SCHEMA,
      steps: [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: inApp }],
    });
    const stored = await dev.client.post(`/v2/workflows/${saved.body.workflowId}/step/inbox/preview`, {
      previewPayload: { subscriber: { firstName: 'Ada' } },
    });
    expect(stored.body.result).toEqual(draft.body.result);
    expect((await dev.client.get('/v2/workflows?limit=100')).body.workflows).toHaveLength(1);
  });

  it('renders an email’s HTML, and text channels without a payload schema', async () => {
    const { dev } = await createTestOrg(api.url);
    const email = await dev.client.post('/v2/workflows/steps/preview', {
      type: 'email',
      controlValues: { subject: 'Hi', body: '<p>Order {{payload.orderId}}</p>', editorType: 'html' },
      payloadSchema: PAYLOAD_SCHEMA,
    });
    expect(email.status).toBe(201);
    expect(email.body.result.preview.subject).toBe('Hi');
    expect(email.body.result.preview.body).toContain('Order A-1');

    const sms = await dev.client.post('/v2/workflows/steps/preview', {
      type: 'sms',
      controlValues: { body: 'Code {{payload.code}}' },
      previewPayload: { payload: { code: '42' } },
    });
    expect(sms.body).toMatchObject({ result: { type: 'sms', preview: { body: 'Code 42' } }, schema: null });
  });

  it('refuses a body without a known kind of step (422)', async () => {
    const { dev } = await createTestOrg(api.url);
    const res = await dev.client.post('/v2/workflows/steps/preview', { type: 'fax', controlValues: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('type');
    expect((await dev.client.post('/v2/workflows/steps/preview', { type: 'sms', controlValues: 'x' })).status).toBe(422);
  });
});
