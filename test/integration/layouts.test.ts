import { load } from 'cheerio';
import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { BUILT_IN_LAYOUT_HTML } from '#lib/layouts/built-in.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import {
  createEnvironmentWithoutLayouts,
  createTestOrg,
  startTestApi,
  type ApiResponse,
  type TestApi,
  type TestEnv,
} from '../support/api.ts';

// Layouts end to end: /v2/layouts through the route table and the real handlers against the
// emulators, first as a user of the reference's server SDK (`@novu/api`, which validates every
// answer against its schemas), then the rules the SDK cannot show (errors, defaults, use by
// workflows). Every test provisions its own organization.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

// The interface names the reference's brand `svc` (origin `svc-cloud`); the SDK knows it as `novu…`.
const debrand = (text: string) => text.replace(/"svc(-[a-z0-9-]+)?"/g, '"novu$1"');
const sdkOf = (env: TestEnv) =>
  new Novu({
    secretKey: env.apiKey,
    serverURL: api.url,
    httpClient: new HTTPClient({
      fetcher: async (input, init) => {
        const res = await fetch(input, init);
        return new Response(res.status === 204 ? null : debrand(await res.text()), {
          status: res.status,
          statusText: res.statusText,
          headers: res.headers,
        });
      },
    }),
  });

const html = (inner: string) => `<html><body><div class="brand">${inner}</div></body></html>`;
const htmlValues = (inner = '{{content}}') => ({ email: { editorType: 'html', body: html(inner) } });

async function createLayout(env: TestEnv, body: Record<string, unknown>) {
  const res = await env.client.post('/v2/layouts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function expectError(res: ApiResponse, status: number, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, path: expect.any(String), message: expect.any(String), error: expect.any(String) });
  if (message !== undefined) expect(res.body.message).toMatch(message);
}

const ID = expect.stringMatching(/^[0-9a-f]{24}$/);

describe('layouts through @novu/api', () => {
  it('creates, updates, retrieves by identifier, id and slug, lists, duplicates, reports usage and deletes', async () => {
    const { dev } = await createTestOrg(api.url);
    const novu = sdkOf(dev);

    // The reference's create takes no content: the layout starts as the empty block document.
    const created = (await novu.layouts.create({ layoutId: 'brand', name: 'Brand' })).result;
    expect(created).toMatchObject({
      id: ID,
      layoutId: 'brand',
      name: 'Brand',
      isDefault: false,
      isTranslationEnabled: false,
      origin: 'novu-cloud',
      type: 'BRIDGE',
    });
    expect(created.slug).toMatch(/^brand_lt_[0-9A-Za-z]{16}$/);
    expect(created.controls.values.email?.editorType).toBe('block');
    expect(JSON.parse(created.controls.values.email!.body)).toMatchObject({ type: 'doc' });
    expect(Object.keys(created.variables!.properties)).toEqual(['subscriber', 'content', 'context', 'env']);

    const updated = (
      await novu.layouts.update({ name: 'Brand v2', controlValues: { email: { body: html('{{content}}'), editorType: 'html' } } }, 'brand')
    ).result;
    expect(updated).toMatchObject({
      id: created.id,
      layoutId: 'brand',
      name: 'Brand v2',
      controls: { values: { email: { body: html('{{content}}'), editorType: 'html' } } },
    });
    for (const ref of ['brand', created.id, updated.slug]) {
      expect((await novu.layouts.retrieve(ref)).result).toMatchObject({ id: created.id, name: 'Brand v2' });
    }

    const copy = (await novu.layouts.duplicate({ name: 'Brand copy' }, 'brand')).result;
    expect(copy).toMatchObject({
      layoutId: 'brand-copy',
      name: 'Brand copy',
      isDefault: false,
      controls: { values: { email: { body: html('{{content}}') } } },
    });

    const list = (await novu.layouts.list({ limit: 2, orderBy: 'name', orderDirection: 'ASC' })).result;
    expect(list.totalCount).toBe(3);
    expect(list.layouts.map((l) => l.layoutId)).toEqual(['brand-copy', 'brand']);
    // List items are thin, as the reference's.
    expect(list.layouts[0]!.controls.values).toEqual({});
    expect((await novu.layouts.list({ query: 'COPY' })).result.layouts.map((l) => l.layoutId)).toEqual(['brand-copy']);
    expect((await novu.layouts.list({ offset: 1, limit: 10 })).result.layouts.map((l) => l.layoutId)).toEqual(['brand', 'default-layout']);

    expect((await novu.layouts.usage('brand')).result).toEqual({ workflows: [] });
    const preview = (await novu.layouts.generatePreview({ previewPayload: { subscriber: { firstName: 'Ada' } } }, 'brand')).result;
    expect(preview.result.preview!.body).toContain('<div class="brand">');
    expect(preview.previewPayloadExample.subscriber).toMatchObject({ firstName: 'Ada', lastName: '{{subscriber.lastName}}' });
    const sent = (
      await novu.layouts.generatePreview(
        {
          controlValues: { email: { editorType: 'html', body: html('Hi {{subscriber.firstName}} {{content}}') } },
          previewPayload: { subscriber: { firstName: 'Ada' } },
        },
        'brand',
      )
    ).result;
    expect(sent.result.preview!.body).toMatch(/Hi Ada <table/);
    // A block layout (created as the reference's EMPTY_LAYOUT) is rendered too, the placeholder table in its slot.
    await novu.layouts.create({ layoutId: 'blocky', name: 'Blocky' });
    const empty = (await novu.layouts.generatePreview({}, 'blocky')).result;
    const $empty = load(empty.result.preview!.body);
    expect($empty('td').filter((_, td) => $empty(td).text() === 'The body of each email step goes here')).toHaveLength(1);
    expect(empty.schema).toMatchObject({ properties: { subscriber: {}, content: {} } });
    const heading = JSON.stringify({
      type: 'doc',
      content: [
        {
          type: 'heading',
          attrs: { level: 1 },
          content: [
            { type: 'text', text: 'Hi ' },
            { type: 'variable', attrs: { id: 'subscriber.firstName' } },
          ],
        },
        { type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'content' } }] },
      ],
    });
    const drawn = (
      await novu.layouts.generatePreview(
        { controlValues: { email: { editorType: 'block', body: heading } }, previewPayload: { subscriber: { firstName: '<b>Ada</b>' } } },
        'blocky',
      )
    ).result;
    const $drawn = load(drawn.result.preview!.body);
    expect($drawn('h1').text()).toBe('Hi <b>Ada</b>');
    expect($drawn('table td').filter((_, td) => $drawn(td).text() === 'The body of each email step goes here')).toHaveLength(1);
    await novu.layouts.delete('blocky');
    await novu.layouts.delete('brand-copy');
    await expect(novu.layouts.retrieve('brand-copy')).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('layouts', () => {
  it('gives a new environment the built-in layout as its default, which cannot be deleted', async () => {
    const { dev } = await createTestOrg(api.url);
    const list = await dev.client.get('/v2/layouts');
    expect(list.body).toMatchObject({ totalCount: 1, layouts: [{ layoutId: 'default-layout', name: 'Default layout', isDefault: true }] });
    const layout = await dev.client.get('/v2/layouts/default-layout');
    expect(layout.body.controls.values.email).toEqual({ editorType: 'html', body: BUILT_IN_LAYOUT_HTML });
    expectError(
      await dev.client.delete('/v2/layouts/default-layout'),
      409,
      'Layout with id default-layout is being used as a default layout, it can not be deleted',
    );
    expect((await dev.client.get('/v2/layouts/default-layout')).status).toBe(200);
  });

  it('makes the first layout of an environment that has none its default, and no later one', async () => {
    const org = await createTestOrg(api.url);
    const legacy = await createEnvironmentWithoutLayouts(api.url, org.id);
    expect((await legacy.client.get('/v2/layouts')).body).toEqual({ layouts: [], totalCount: 0 });
    const [a, b] = await Promise.all([
      legacy.client.post('/v2/layouts', { layoutId: 'a', name: 'A', controlValues: htmlValues() }),
      legacy.client.post('/v2/layouts', { layoutId: 'b', name: 'B', controlValues: htmlValues() }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    // Of two created at once, exactly one is the default.
    expect([a.body.isDefault, b.body.isDefault].filter(Boolean)).toHaveLength(1);
    const c = await createLayout(legacy, { layoutId: 'c', name: 'C' });
    expect(c.isDefault).toBe(false);
    const list = await legacy.client.get('/v2/layouts?orderDirection=ASC');
    expect(list.body.layouts.filter((l: any) => l.isDefault)).toHaveLength(1);
  });

  it('replaces, keeps or removes the content on update, never the identifier', async () => {
    const { dev } = await createTestOrg(api.url);
    await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues('<p>A</p>{{content}}') });
    const kept = await dev.client.put('/v2/layouts/brand', { name: 'Renamed', layoutId: 'ignored' });
    expect(kept.body).toMatchObject({
      layoutId: 'brand',
      name: 'Renamed',
      controls: { values: { email: { body: html('<p>A</p>{{content}}') } } },
    });
    const replaced = await dev.client.put('/v2/layouts/brand', {
      name: 'Renamed',
      controlValues: htmlValues('<p>B</p>{{ content }}'),
      isTranslationEnabled: true,
    });
    expect(replaced.body).toMatchObject({
      isTranslationEnabled: true,
      controls: { values: { email: { body: html('<p>B</p>{{ content }}') } } },
    });
    const removed = await dev.client.put('/v2/layouts/brand', { name: 'Renamed', controlValues: null });
    expect(removed.body.controls.values).toEqual({});
    expect((await dev.client.get('/v2/layouts/brand')).body.controls.values).toEqual({});
  });

  it('refuses content that is not a layout, names taken, bad bodies and unknown layouts, writing nothing', async () => {
    const { dev } = await createTestOrg(api.url);
    await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    const refused: [Record<string, unknown>, number, string | RegExp][] = [
      [{ email: { editorType: 'html', body: '<div>{{content}}</div>' } }, 400, 'Content must be a valid HTML content'],
      [{ email: { editorType: 'html', body: html('no slot') } }, 400, 'Layout has validation issues'],
      [{ email: { editorType: 'html', body: html('{{content}} {{payload.name}}') } }, 400, 'Layout has validation issues'],
      [
        { email: { editorType: 'html', body: html('{{content}} {{ subscriber.firstName | nosuchfilter }}') } },
        400,
        'Layout has validation issues',
      ],
      [{ email: { editorType: 'block', body: html('{{content}}') } }, 400, 'Content must be a valid Maily JSON content'],
      [
        { email: { editorType: 'block', body: JSON.stringify({ type: 'doc', content: [{ type: 'paragraph' }] }) } },
        400,
        'Layout has validation issues',
      ],
      [{ email: { editorType: 'html', body: JSON.stringify({ type: 'doc', content: [] }) } }, 400, 'Content must be a valid HTML content'],
      [{ email: { editorType: 'mjml', body: html('{{content}}') } }, 422, 'Validation Error'],
      [{ email: { editorType: 'html' } }, 422, 'Validation Error'],
    ];
    for (const [controlValues, status, message] of refused) {
      expectError(await dev.client.post('/v2/layouts', { layoutId: 'other', name: 'Other', controlValues }), status, message);
      expectError(await dev.client.put('/v2/layouts/brand', { name: 'Changed', controlValues }), status, message);
    }
    const issues = await dev.client.put('/v2/layouts/brand', {
      name: 'Changed',
      controlValues: { email: { editorType: 'html', body: html('{{payload.x}}') } },
    });
    expect(issues.body.errors['controlValues.email.body'].messages).toEqual([
      'The layout body should contain the "content" variable',
      'Variable payload.x is not available in a layout: use subscriber.*, context.*, env.* or content',
    ]);
    // A block document with the slot is accepted (it is rendered by the block renderer).
    const block = JSON.stringify({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'content' } }] }],
    });
    expect(
      (await dev.client.put('/v2/layouts/brand', { name: 'Block', controlValues: { email: { editorType: 'block', body: block } } })).status,
    ).toBe(200);

    expectError(
      await dev.client.post('/v2/layouts', { layoutId: 'brand', name: 'Again' }),
      409,
      `Layout with identifier: brand already exists under environment ${dev.id}`,
    );
    expectError(await dev.client.post('/v2/layouts', { layoutId: 'x' }), 422, 'Validation Error');
    expectError(await dev.client.post('/v2/layouts', { name: 'x'.repeat(129) }), 422, 'Validation Error');
    expectError(await dev.client.post('/v2/layouts/brand/duplicate', { name: 'Copy', layoutId: 'brand' }), 409);
    expectError(await dev.client.get('/v2/layouts?limit=0'), 422, 'Validation Error');
    expectError(await dev.client.get('/v2/layouts?orderBy=slug'), 422, 'Validation Error');
    for (const [method, path] of [
      ['GET', '/v2/layouts/nope'],
      ['DELETE', '/v2/layouts/nope'],
      ['GET', '/v2/layouts/nope/usage'],
      ['GET', '/v2/layouts/000000000000000000000000'],
    ] as const) {
      expectError(await dev.client[method === 'GET' ? 'get' : 'delete'](path), 404, /^Layout not found for id /);
    }
    expectError(await dev.client.put('/v2/layouts/nope', { name: 'N' }), 404);
    expectError(await dev.client.post('/v2/layouts/nope/duplicate', { name: 'N' }), 404);

    const list = await dev.client.get('/v2/layouts?orderBy=name&orderDirection=ASC');
    expect(list.body.layouts.map((l: any) => [l.layoutId, l.name])).toEqual([
      ['brand', 'Block'],
      ['default-layout', 'Default layout'],
    ]);
  });

  it('keeps each environment’s layouts apart', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const mine = await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    for (const ref of ['brand', mine._id, mine.slug]) expect((await prod.client.get(`/v2/layouts/${ref}`)).status).toBe(404);
    expect((await prod.client.get('/v2/layouts')).body.layouts.map((l: any) => l.layoutId)).toEqual(['default-layout']);
    // The same identifier is free in another environment.
    expect((await prod.client.post('/v2/layouts', { layoutId: 'brand', name: 'Prod brand' })).status).toBe(201);
  });
});

describe('layouts used by workflows', () => {
  const emailStep = (layoutId?: string | null) => ({
    name: 'Mail',
    stepId: 'mail',
    type: 'email',
    controlValues: { subject: 'Hi', body: '<p>Hi</p>', ...(layoutId !== undefined && { layoutId }) },
  });

  it('stores a step’s layout by identifier, reports usage and refuses to delete a layout in use until no step names it', async () => {
    const { dev } = await createTestOrg(api.url);
    const layout = await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    const a = await dev.client.post('/v2/workflows', { name: 'Welcome', workflowId: 'welcome', steps: [emailStep(layout.slug)] });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.steps[0].controlValues.layoutId).toBe('brand');
    expect(a.body.steps[0].issues.controls).toBeUndefined();
    const b = await dev.client.post('/v2/workflows', { name: 'Digest', workflowId: 'digest', steps: [emailStep(layout._id)] });
    expect(b.body.steps[0].controlValues.layoutId).toBe('brand');

    const usage = await dev.client.get(`/v2/layouts/${layout._id}/usage`);
    expect(usage.body.workflows.sort((x: any, y: any) => x.workflowId.localeCompare(y.workflowId))).toEqual([
      { name: 'Digest', workflowId: 'digest' },
      { name: 'Welcome', workflowId: 'welcome' },
    ]);
    expectError(await dev.client.delete('/v2/layouts/brand'), 409, 'Layout with id brand is used by a workflow, it can not be deleted');

    // A renamed workflow is shown under its new name; one that stops using the layout is gone from the usage.
    await dev.client.patch('/v2/workflows/welcome', { name: 'Hello' });
    await dev.client.put('/v2/workflows/digest', { name: 'Digest', steps: [emailStep(null)] });
    expect((await dev.client.get('/v2/layouts/brand/usage')).body).toEqual({ workflows: [{ name: 'Hello', workflowId: 'welcome' }] });
    expectError(await dev.client.delete('/v2/layouts/brand'), 409);

    // Deleting the last workflow that uses it frees it.
    expect((await dev.client.delete('/v2/workflows/welcome')).status).toBe(204);
    expect((await dev.client.get('/v2/layouts/brand/usage')).body).toEqual({ workflows: [] });
    expect((await dev.client.delete('/v2/layouts/brand')).status).toBe(204);
    expect((await dev.client.get('/v2/layouts/brand')).status).toBe(404);
  });

  it('shows a step naming an unknown layout as an issue until the layout exists', async () => {
    const { dev } = await createTestOrg(api.url);
    const res = await dev.client.post('/v2/workflows', {
      name: 'Welcome',
      workflowId: 'welcome',
      active: true,
      steps: [emailStep('later')],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.steps[0].issues.controls.layoutId).toEqual([
      { issueType: 'MISSING_VALUE', message: 'Layout later not found in this environment' },
    ]);
    await createLayout(dev, { layoutId: 'later', name: 'Later', controlValues: htmlValues() });
    const after = await dev.client.get('/v2/workflows/welcome');
    expect(after.body.steps[0].issues.controls).toBeUndefined();
    expect(after.body.status).toBe('ACTIVE');
    // The step named it before it existed: it is in use all the same.
    expectError(await dev.client.delete('/v2/layouts/later'), 409);
  });

  it('records the use by a workflow stored before uses were recorded at its next write', async () => {
    const { dev } = await createTestOrg(api.url);
    await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    const created = await dev.client.post('/v2/workflows', { name: 'Old', workflowId: 'old', steps: [emailStep('brand')] });
    // As it was stored before this change: no flag, no use item, no count.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.workflow(dev.scope, 'old'), UpdateExpression: 'REMOVE layoutUsesTracked' }),
    );
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.layoutUse(dev.scope, 'brand', created.body._id) }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.layoutUseCount(dev.scope, 'brand') }));
    expect((await dev.client.get('/v2/layouts/brand/usage')).body.workflows).toEqual([]);

    expect((await dev.client.patch('/v2/workflows/old', { description: 'touched' })).status).toBe(200);
    expect((await dev.client.get('/v2/layouts/brand/usage')).body.workflows).toEqual([{ name: 'Old', workflowId: 'old' }]);
    expectError(await dev.client.delete('/v2/layouts/brand'), 409);
    await dev.client.put('/v2/workflows/old', { name: 'Old', steps: [emailStep(null)] });
    expect((await dev.client.delete('/v2/layouts/brand')).status).toBe(204);
  });

  it('takes a v1 step’s layoutId the same way', async () => {
    const { dev } = await createTestOrg(api.url);
    const layout = await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    const groups = await dev.client.get('/v1/notification-groups');
    const res = await dev.client.post('/v1/notification-templates', {
      name: 'Legacy',
      notificationGroupId: groups.body.data[0]._id,
      steps: [{ template: { type: 'email', subject: 'Hi', content: '<p>Hi</p>', layoutId: layout._id } }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await dev.client.get('/v2/layouts/brand/usage')).body.workflows).toEqual([
      { name: 'Legacy', workflowId: res.body.data.triggers[0].identifier },
    ]);
    expectError(await dev.client.delete('/v2/layouts/brand'), 409);
    expect((await dev.client.delete(`/v1/notification-templates/${res.body.data._id}`)).status).toBe(200);
    expect((await dev.client.delete('/v2/layouts/brand')).status).toBe(204);
  });

  it('brings the layouts a workflow uses along when it is synced, without their default flag', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    await createLayout(dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues('<p>Dev</p>{{content}}') });
    await dev.client.post('/v2/workflows', {
      name: 'Welcome',
      workflowId: 'welcome',
      steps: [emailStep('brand'), { ...emailStep(), stepId: 'mail-2', name: 'Mail 2' }],
    });
    const synced = await dev.client.put('/v2/workflows/welcome/sync', { targetEnvironmentId: prod.id });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect(synced.body.steps[0].issues.controls).toBeUndefined();
    const copied = await prod.client.get('/v2/layouts/brand');
    expect(copied.body).toMatchObject({
      name: 'Brand',
      isDefault: false,
      controls: { values: { email: { body: html('<p>Dev</p>{{content}}') } } },
    });
    expect((await prod.client.get('/v2/layouts/brand/usage')).body.workflows).toEqual([{ name: 'Welcome', workflowId: 'welcome' }]);

    // Synced again after a change: the target's layout is updated in place.
    await dev.client.put('/v2/layouts/brand', { name: 'Brand 2', controlValues: htmlValues('<p>Dev 2</p>{{content}}') });
    await dev.client.put('/v2/workflows/welcome/sync', { targetEnvironmentId: prod.id });
    const again = await prod.client.get('/v2/layouts/brand');
    expect(again.body).toMatchObject({
      _id: copied.body._id,
      name: 'Brand 2',
      controls: { values: { email: { body: html('<p>Dev 2</p>{{content}}') } } },
    });
  });

  it('makes a synced layout the target’s default only when the target has none', async () => {
    const org = await createTestOrg(api.url);
    const legacy = await createEnvironmentWithoutLayouts(api.url, org.id);
    await createLayout(org.dev, { layoutId: 'brand', name: 'Brand', controlValues: htmlValues() });
    await org.dev.client.post('/v2/workflows', { name: 'Welcome', workflowId: 'welcome', steps: [emailStep('brand')] });
    expect((await org.dev.client.put('/v2/workflows/welcome/sync', { targetEnvironmentId: legacy.id })).status).toBe(200);
    expect((await legacy.client.get('/v2/layouts/brand')).body.isDefault).toBe(true);
  });
});
