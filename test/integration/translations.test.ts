import { Novu } from '@novu/api';
import { NovuError } from '@novu/api/models/errors/novuerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { multipartBody } from '../support/multipart.ts';
import { createWorkflow, messagesOf, rand, settled, trigger } from '../support/pipeline.ts';

// Translations as a user meets them: managed through the reference's translation API (with
// `@novu/api` where it has the method), and rendered into what each channel delivers for
// subscribers of different locales, through the API, the queues and both consumers.

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;
let novu: Novu;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
});
afterAll(() => api.close());

const IN_APP = {
  name: 'Inbox',
  stepId: 'inbox',
  type: 'in_app',
  controlValues: { subject: '{{ t.inbox.subject }}', body: '{{t.greeting}}, {{ t.farewell }}' },
};

async function translatedWorkflow(steps: Record<string, unknown>[] = [IN_APP], enabled = true): Promise<string> {
  return createWorkflow(env.client, steps, { isTranslationEnabled: enabled });
}

async function upsert(workflowId: string, locale: string, content: Record<string, unknown>, client = env.client) {
  const res = await client.post('/v2/translations', { resourceType: 'workflow', resourceId: workflowId, locale, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof NovuError ? error.statusCode : -1;
  }
}

describe('the translation API', () => {
  it('upserts a locale through @novu/api: the second write replaces the content, not merges it', async () => {
    const workflowId = await translatedWorkflow();
    const first = await novu.translations.create({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'en_US',
      content: { key1: 'one', key2: 'two' },
    });
    expect(first).toMatchObject({
      resourceId: workflowId,
      resourceType: 'workflow',
      locale: 'en_US',
      content: { key1: 'one', key2: 'two' },
    });
    const second = await novu.translations.create({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'en-US',
      content: { key1: 'uno', key3: 'tres' },
    });
    expect(second.content).toEqual({ key1: 'uno', key3: 'tres' });
    expect(second.createdAt).toBe(first.createdAt);

    const read = await novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'en_US' });
    expect(read.content).toEqual({ key1: 'uno', key3: 'tres' });
    // By database id too, as the reference's workflow routes take it.
    const workflow = (await env.client.get(`/v2/workflows/${workflowId}`)).body;
    expect((await env.client.get(`/v2/translations/workflow/${workflow._id}/en_US`)).body.data.content).toEqual({
      key1: 'uno',
      key3: 'tres',
    });
  });

  it('shows the group with its locales, deletes one locale, then the group', async () => {
    const workflowId = await translatedWorkflow();
    await upsert(workflowId, 'en_US', { greeting: 'Hello' });
    await upsert(workflowId, 'es_ES', { greeting: 'Hola' });

    const group = await novu.translations.groups.retrieve('workflow', workflowId);
    expect(group).toMatchObject({
      resourceId: workflowId,
      resourceType: 'workflow',
      resourceName: workflowId,
      locales: ['en_US', 'es_ES'],
    });
    expect(group.outdatedLocales).toBeUndefined();

    await novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' });
    expect(await statusOf(novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' }))).toBe(404);
    expect((await novu.translations.groups.retrieve('workflow', workflowId)).locales).toEqual(['en_US']);
    expect(await statusOf(novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' }))).toBe(404);

    await novu.translations.groups.delete('workflow', workflowId);
    expect(await statusOf(novu.translations.groups.retrieve('workflow', workflowId))).toBe(404);
    expect(await statusOf(novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'en_US' }))).toBe(404);
    expect((await env.client.delete(`/v2/translations/workflow/${workflowId}`)).status).toBe(404);
  });

  it('answers 422 for a locale that is not a known language_REGION, and writes nothing', async () => {
    const workflowId = await translatedWorkflow();
    for (const locale of ['123', 'en', 'xx_XX', 'en_ZZ', 'en_US_x', '']) {
      const res = await env.client.post('/v2/translations', {
        resourceType: 'workflow',
        resourceId: workflowId,
        locale,
        content: { a: 'b' },
      });
      expect(res.status, locale).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, message: 'Validation Error' });
      expect(Object.keys(res.body.errors)).toEqual(['locale']);
    }
    expect((await env.client.get(`/v2/translations/workflow/${workflowId}/xx_XX`)).status).toBe(422);
    expect((await env.client.get('/v2/translations/master-json?locale=nope')).status).toBe(422);
    expect(
      (await env.client.post('/v2/translations', { resourceType: 'page', resourceId: workflowId, locale: 'en_US', content: {} })).status,
    ).toBe(422);
    expect((await env.client.get('/v2/translations/list')).body.data.map((g: any) => g.resourceId)).not.toContain(workflowId);
  });

  it('answers 404 for an unknown workflow, an unknown layout, a locale without content and a workflow without translations', async () => {
    expect(
      await statusOf(novu.translations.create({ resourceType: 'workflow', resourceId: `missing-${rand()}`, locale: 'en_US', content: {} })),
    ).toBe(404);
    const unknownLayout = await env.client.post('/v2/translations', {
      resourceType: 'layout',
      resourceId: 'default',
      locale: 'en_US',
      content: {},
    });
    expect(unknownLayout.status).toBe(404);
    expect(unknownLayout.body.message).toBe('Layout with id default not found');
    const workflowId = await translatedWorkflow();
    expect((await env.client.get(`/v2/translations/workflow/${workflowId}/de_DE`)).status).toBe(404);
    expect((await env.client.get(`/v2/translations/group/workflow/${workflowId}`)).status).toBe(404);

    // Content can be written while translations are off (as the reference's import does); the group shows only when on.
    const plain = await translatedWorkflow([IN_APP], false);
    await upsert(plain, 'en_US', { greeting: 'Hello' });
    expect((await env.client.get(`/v2/translations/group/${'workflow'}/${plain}`)).status).toBe(404);
  });

  it('exports and imports the master JSON of a locale; unknown ids are reported in failed', async () => {
    const a = await translatedWorkflow();
    const b = await translatedWorkflow();
    await upsert(a, 'fr_FR', { greeting: 'Bonjour' });

    const missing = `missing-${rand()}`;
    const imported = await novu.translations.master.import({
      locale: 'fr-FR',
      masterJson: { workflows: { [b]: { greeting: 'Salut' }, [missing]: { greeting: 'x' } } },
    });
    expect(imported).toMatchObject({ success: true, message: 'Partial import completed', successful: [b], failed: [missing] });
    const whole = await novu.translations.master.import({ locale: 'fr_FR', masterJson: { workflows: { [a]: { greeting: 'Bonjour !' } } } });
    expect(whole.success).toBe(true);
    expect(whole.failed).toBeUndefined();
    expect(whole.message).toContain('1 resource(s)');

    const exported = await novu.translations.master.retrieve('fr_FR');
    expect(exported.workflows[a]).toEqual({ greeting: 'Bonjour !' });
    expect(exported.workflows[b]).toEqual({ greeting: 'Salut' });
    expect(exported.workflows[missing]).toBeUndefined();
    // Without a locale: the organization's default (en_US), where these two have no content.
    const byDefault = await novu.translations.master.retrieve();
    expect(byDefault.workflows[a]).toBeUndefined();
  });

  it('lists the groups, newest first, filtered by name or id, with the given page', async () => {
    const marker = rand();
    const older = await createWorkflow(env.client, [IN_APP], { isTranslationEnabled: true, name: `Orders ${marker}` });
    const newer = await createWorkflow(env.client, [IN_APP], { isTranslationEnabled: true, name: `Invoices ${marker}` });
    await upsert(older, 'en_US', { a: 'b' });
    await upsert(newer, 'en_US', { a: 'b' });
    const res = await env.client.get(`/v2/translations/list?query=${marker.toUpperCase()}`);
    expect(res.status).toBe(200);
    // Already a page with `data`: not wrapped again (the reference answers it so).
    expect(res.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(res.body.data.map((g: any) => g.resourceId)).toEqual([newer, older]);
    const second = await env.client.get(`/v2/translations/list?query=${marker}&limit=1&offset=1`);
    expect(second.body.data.map((g: any) => g.resourceName)).toEqual([`Orders ${marker}`]);
  });

  it('keeps environments apart: the other environment neither sees nor changes them', async () => {
    const workflowId = await translatedWorkflow();
    await upsert(workflowId, 'en_US', { greeting: 'Hello' });
    const other = org.prod.client;
    expect((await other.get(`/v2/translations/workflow/${workflowId}/en_US`)).status).toBe(404);
    expect(
      (await other.post('/v2/translations', { resourceType: 'workflow', resourceId: workflowId, locale: 'en_US', content: {} })).status,
    ).toBe(404);
    expect((await other.delete(`/v2/translations/workflow/${workflowId}`)).status).toBe(404);
    expect((await other.get('/v2/translations/master-json?locale=en_US')).body.data.workflows[workflowId]).toBeUndefined();
    expect((await env.client.get(`/v2/translations/workflow/${workflowId}/en_US`)).body.data.content).toEqual({ greeting: 'Hello' });
  });

  it('keeps the default and target locales in the organization settings, and names outdated locales', async () => {
    const other = await createTestOrg(api.url);
    const settings = other.dev.client;
    expect((await settings.get('/v1/organizations/settings')).body.data).toEqual({
      removeNovuBranding: false,
      defaultLocale: 'en_US',
      targetLocales: [],
      channelFailover: false,
    });
    expect((await settings.patch('/v1/organizations/settings', { defaultLocale: 'xx-XX' })).status).toBe(422);
    const changed = await settings.patch('/v1/organizations/settings', { defaultLocale: 'de-DE', targetLocales: ['fr_FR', 'es-ES'] });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({
      removeNovuBranding: false,
      defaultLocale: 'de_DE',
      targetLocales: ['fr_FR', 'es_ES'],
      channelFailover: false,
    });
    // Organization-wide: the other environment reads the same.
    expect((await other.prod.client.get('/v1/organizations/settings')).body.data.defaultLocale).toBe('de_DE');

    const workflowId = await createWorkflow(settings, [IN_APP], { isTranslationEnabled: true });
    await upsert(workflowId, 'fr_FR', { a: 'b' }, settings);
    await upsert(workflowId, 'de_DE', { a: 'c' }, settings);
    const group = (await settings.get(`/v2/translations/group/workflow/${workflowId}`)).body.data;
    // es_ES is missing; fr_FR was last changed before the default locale's content.
    expect(group.outdatedLocales.sort()).toEqual(['es_ES', 'fr_FR']);
    // The master JSON defaults to the organization's default locale.
    expect((await settings.get('/v2/translations/master-json')).body.data.workflows[workflowId]).toEqual({ a: 'c' });
  });
});

describe('uploads (multipart/form-data)', () => {
  let other: TestOrg;
  let upload: Novu;
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  beforeAll(async () => {
    // An organization of its own: uploads take only its configured locales.
    other = await createTestOrg(api.url);
    upload = new Novu({ secretKey: other.dev.apiKey, serverURL: api.url });
    expect((await other.dev.client.patch('/v1/organizations/settings', { targetLocales: ['es_ES', 'fr_FR'] })).status).toBe(200);
  });

  it('uploads <locale>.json files through @novu/api, each replacing its locale; a file that is not a JSON object fails alone', async () => {
    const workflowId = await createWorkflow(other.dev.client, [IN_APP], { isTranslationEnabled: true });
    const result = await upload.translations.upload({
      resourceType: 'workflow',
      resourceId: workflowId,
      files: [
        { fileName: 'en_US.json', content: json({ greeting: 'Hello' }) },
        { fileName: 'es-ES.json', content: json({ greeting: 'Hola' }) },
        { fileName: 'fr_FR.json', content: new TextEncoder().encode('{"greeting": ') },
      ],
    });
    expect(result).toEqual({
      totalFiles: 3,
      successfulUploads: 2,
      failedUploads: 1,
      errors: [expect.stringContaining("Failed to process file 'fr_FR.json'")],
    });
    expect((await other.dev.client.get(`/v2/translations/workflow/${workflowId}/es_ES`)).body.data.content).toEqual({ greeting: 'Hola' });
    expect((await other.dev.client.get(`/v2/translations/workflow/${workflowId}/fr_FR`)).status).toBe(404);
  });

  it('refuses the whole upload for a badly named file, an unconfigured locale, no files or a body that is not multipart', async () => {
    const workflowId = await createWorkflow(other.dev.client, [IN_APP], { isTranslationEnabled: true });
    const send = (files: { field?: string; filename: string; content?: string }[]) => {
      const form = multipartBody(
        { resourceType: 'workflow', resourceId: workflowId },
        files.map((f) => ({ field: f.field ?? 'files', filename: f.filename, content: f.content ?? '{"a":"b"}' })),
      );
      return other.dev.client.request('POST', '/v2/translations/upload', form);
    };
    const badName = await send([{ filename: 'en_US.json' }, { filename: 'en.json' }, { filename: 'x.txt' }]);
    expect(badName.status).toBe(400);
    expect(badName.body.message).toContain('invalid names or formats');
    expect(Object.keys(badName.body.errors)).toEqual(['en.json', 'x.txt']);
    const unconfigured = await send([{ filename: 'ja_JP.json' }]);
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.message).toContain('not configured for your organization: ja_JP');
    expect((await send([])).body.message).toBe('No valid translation files were found');
    expect((await other.dev.client.post('/v2/translations/upload', { resourceType: 'workflow', resourceId: workflowId })).status).toBe(400);
    expect((await other.dev.client.get(`/v2/translations/workflow/${workflowId}/en_US`)).status).toBe(404);
    // An unknown workflow is a 404, as for the JSON route.
    const unknown = multipartBody({ resourceType: 'workflow', resourceId: `missing-${rand()}` }, [
      { field: 'files', filename: 'en_US.json', content: '{}' },
    ]);
    expect((await other.dev.client.request('POST', '/v2/translations/upload', unknown)).status).toBe(404);
  });

  it('imports an uploaded master JSON file named by its locale, and refuses anything but exactly one such file', async () => {
    const workflowId = await createWorkflow(other.dev.client, [IN_APP], { isTranslationEnabled: true });
    const missing = `missing-${rand()}`;
    const result = await upload.translations.master.upload({
      file: { fileName: 'fr_FR.json', content: json({ workflows: { [workflowId]: { greeting: 'Bonjour' }, [missing]: {} } }) },
    });
    expect(result).toMatchObject({ success: true, message: 'Partial import completed', successful: [workflowId], failed: [missing] });
    expect((await other.dev.client.get('/v2/translations/master-json?locale=fr_FR')).body.data.workflows[workflowId]).toEqual({
      greeting: 'Bonjour',
    });

    const send = (files: { filename: string; content: string }[]) =>
      other.dev.client.request(
        'POST',
        '/v2/translations/master-json/upload',
        multipartBody(
          {},
          files.map((f) => ({ field: 'file', ...f })),
        ),
      );
    const good = JSON.stringify({ workflows: { [workflowId]: { greeting: 'Salut' } } });
    for (const files of [
      [],
      [
        { filename: 'fr_FR.json', content: good },
        { filename: 'es_ES.json', content: good },
      ],
      [{ filename: 'en_US-master.json', content: good }],
      [{ filename: 'fr_FR.json', content: '{oops' }],
    ]) {
      const res = await send(files);
      expect(res.status, JSON.stringify(files)).toBe(400);
    }
    expect((await other.dev.client.get(`/v2/translations/workflow/${workflowId}/fr_FR`)).body.data.content).toEqual({
      greeting: 'Bonjour',
    });
  });
});

describe('workflow changes', () => {
  it('deletes the translations with the workflow, and when translations are turned off', async () => {
    const off = await translatedWorkflow();
    await upsert(off, 'en_US', { greeting: 'Hello' });
    expect((await env.client.patch(`/v2/workflows/${off}`, { isTranslationEnabled: false })).status).toBe(200);
    expect((await env.client.patch(`/v2/workflows/${off}`, { isTranslationEnabled: true })).status).toBe(200);
    expect((await env.client.get(`/v2/translations/workflow/${off}/en_US`)).status).toBe(404);

    const gone = await translatedWorkflow();
    await upsert(gone, 'en_US', { greeting: 'Hello' });
    expect((await env.client.delete(`/v2/workflows/${gone}`)).status).toBe(204);
    expect((await env.client.get('/v2/translations/master-json?locale=en_US')).body.data.workflows[gone]).toBeUndefined();
    expect((await env.client.get('/v2/translations/list?limit=100')).body.data.map((g: any) => g.resourceId)).not.toContain(gone);
  });

  it('keeps the translations of a workflow whose identifier changes (v1 PUT), under its new id', async () => {
    const workflowId = await translatedWorkflow();
    await upsert(workflowId, 'it_IT', { greeting: 'Ciao' });
    const { _id } = (await env.client.get(`/v2/workflows/${workflowId}`)).body;
    const renamed = `renamed-${rand()}`;
    expect((await env.client.put(`/v1/notification-templates/${_id}`, { identifier: renamed })).status).toBe(200);
    expect((await env.client.get(`/v2/translations/workflow/${renamed}/it_IT`)).body.data).toMatchObject({
      resourceId: renamed,
      content: { greeting: 'Ciao' },
    });
    const exported = (await env.client.get('/v2/translations/master-json?locale=it_IT')).body.data.workflows;
    expect(exported[renamed]).toEqual({ greeting: 'Ciao' });
    expect(exported[workflowId]).toBeUndefined();
    expect((await env.client.get(`/v2/translations/list?query=${renamed}`)).body.data.map((g: any) => g.resourceId)).toEqual([renamed]);
  });

  it('sync copies the translations to the target environment, replacing the target’s', async () => {
    const workflowId = await translatedWorkflow();
    await upsert(workflowId, 'en_US', { greeting: 'Hello' });
    await upsert(workflowId, 'es_ES', { greeting: 'Hola' });
    const sync = () => env.client.put(`/v2/workflows/${workflowId}/sync`, { targetEnvironmentId: org.prod.id });
    expect((await sync()).status).toBe(200);
    const prod = org.prod.client;
    expect((await prod.get(`/v2/translations/group/workflow/${workflowId}`)).body.data.locales).toEqual(['en_US', 'es_ES']);
    expect((await prod.get(`/v2/translations/workflow/${workflowId}/es_ES`)).body.data.content).toEqual({ greeting: 'Hola' });

    // The target's own change and a locale only it has are replaced by the source's again.
    await upsert(workflowId, 'de_DE', { greeting: 'Hallo' }, prod);
    await upsert(workflowId, 'en_US', { greeting: 'Changed in production' }, prod);
    expect((await env.client.delete(`/v2/translations/workflow/${workflowId}/es_ES`)).status).toBe(204);
    expect((await sync()).status).toBe(200);
    expect((await prod.get(`/v2/translations/group/workflow/${workflowId}`)).body.data.locales).toEqual(['en_US']);
    expect((await prod.get(`/v2/translations/workflow/${workflowId}/en_US`)).body.data.content).toEqual({ greeting: 'Hello' });
  });
});

describe('layouts', () => {
  async function translatedLayout(enabled = true, client = env.client): Promise<{ layoutId: string; _id: string; slug: string }> {
    const layoutId = `layout-${rand()}`;
    const res = await client.post('/v2/layouts', { layoutId, name: `Layout ${layoutId}`, isTranslationEnabled: enabled });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  async function upsertLayout(layoutId: string, locale: string, content: Record<string, unknown>, client = env.client) {
    const res = await client.post('/v2/translations', { resourceType: 'layout', resourceId: layoutId, locale, content });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }
  const localesOf = async (layoutId: string, client = env.client) => {
    const res = await client.get(`/v2/translations/group/layout/${layoutId}`);
    return res.status === 200 ? res.body.data.locales : res.status;
  };

  it('are a resource of the translation API, named by identifier, database id or slug', async () => {
    const layout = await translatedLayout();
    const created = await novu.translations.create({
      resourceType: 'layout',
      resourceId: layout.layoutId,
      locale: 'en-US',
      content: { footer: 'Sent with care' },
    });
    expect(created).toMatchObject({
      resourceId: layout.layoutId,
      resourceType: 'layout',
      locale: 'en_US',
      content: { footer: 'Sent with care' },
    });
    await upsertLayout(layout._id, 'es_ES', { footer: 'Enviado con cariño' });
    for (const ref of [layout.layoutId, layout._id, layout.slug]) {
      expect((await env.client.get(`/v2/translations/layout/${ref}/es_ES`)).body.data).toMatchObject({
        resourceId: layout.layoutId,
        content: { footer: 'Enviado con cariño' },
      });
    }
    const group = await novu.translations.groups.retrieve('layout', layout.layoutId);
    expect(group).toMatchObject({
      resourceId: layout.layoutId,
      resourceType: 'layout',
      resourceName: `Layout ${layout.layoutId}`,
      locales: ['en_US', 'es_ES'],
    });
    expect((await env.client.get(`/v2/translations/list?query=${layout.layoutId}`)).body.data.map((g: any) => g.resourceType)).toEqual([
      'layout',
    ]);

    await novu.translations.delete({ resourceType: 'layout', resourceId: layout.layoutId, locale: 'es_ES' });
    expect(await localesOf(layout.layoutId)).toEqual(['en_US']);
    await novu.translations.groups.delete('layout', layout.layoutId);
    expect(await localesOf(layout.layoutId)).toBe(404);
    expect((await env.client.get(`/v2/translations/layout/missing-${rand()}/en_US`)).status).toBe(404);
    // A layout without translations enabled keeps content written to it, but shows no group (as workflows).
    const plain = await translatedLayout(false);
    await upsertLayout(plain.layoutId, 'en_US', { footer: 'x' });
    expect(await localesOf(plain.layoutId)).toBe(404);
  });

  it('are in the master JSON, exported and imported with its layouts section; unknown layouts are reported in failed', async () => {
    const a = await translatedLayout();
    const b = await translatedLayout();
    const workflowId = await translatedWorkflow();
    await upsertLayout(a.layoutId, 'pt_BR', { footer: 'Enviado' });
    const missing = `missing-${rand()}`;
    const imported = await novu.translations.master.import({
      locale: 'pt_BR',
      masterJson: {
        workflows: { [workflowId]: { greeting: 'Olá' } },
        layouts: { [b.layoutId]: { footer: 'Com carinho' }, [missing]: { footer: 'x' } },
      },
    });
    expect(imported).toMatchObject({
      success: true,
      message: 'Partial import completed',
      successful: [workflowId, b.layoutId],
      failed: [missing],
    });
    const exported = (await env.client.get('/v2/translations/master-json?locale=pt_BR')).body.data;
    expect(exported.layouts[a.layoutId]).toEqual({ footer: 'Enviado' });
    expect(exported.layouts[b.layoutId]).toEqual({ footer: 'Com carinho' });
    expect(exported.layouts[missing]).toBeUndefined();
    expect(exported.workflows[workflowId]).toEqual({ greeting: 'Olá' });
    expect(exported.workflows[a.layoutId]).toBeUndefined();
  });

  it('are deleted with the layout, and when its translations are turned off', async () => {
    const off = await translatedLayout();
    await upsertLayout(off.layoutId, 'en_US', { footer: 'Hello' });
    expect((await env.client.put(`/v2/layouts/${off.layoutId}`, { name: 'Off', isTranslationEnabled: false })).status).toBe(200);
    expect((await env.client.put(`/v2/layouts/${off.layoutId}`, { name: 'Off', isTranslationEnabled: true })).status).toBe(200);
    expect((await env.client.get(`/v2/translations/layout/${off.layoutId}/en_US`)).status).toBe(404);
    // An update that leaves translations on keeps them.
    await upsertLayout(off.layoutId, 'en_US', { footer: 'Hello' });
    expect((await env.client.put(`/v2/layouts/${off.layoutId}`, { name: 'Renamed' })).status).toBe(200);
    expect(await localesOf(off.layoutId)).toEqual(['en_US']);

    const gone = await translatedLayout();
    await upsertLayout(gone.layoutId, 'en_US', { footer: 'Hello' });
    expect((await env.client.delete(`/v2/layouts/${gone.layoutId}`)).status).toBe(204);
    expect((await env.client.get('/v2/translations/master-json?locale=en_US')).body.data.layouts[gone.layoutId]).toBeUndefined();
    expect((await env.client.get(`/v2/translations/list?query=${gone.layoutId}`)).body.data).toEqual([]);
  });

  it('are copied to a duplicate that has translations enabled, and not to one that has not', async () => {
    const original = await translatedLayout();
    await upsertLayout(original.layoutId, 'en_US', { footer: 'Hello' });
    await upsertLayout(original.layoutId, 'es_ES', { footer: 'Hola' });
    const copy = (
      await env.client.post(`/v2/layouts/${original.layoutId}/duplicate`, { name: `Copy ${rand()}`, isTranslationEnabled: true })
    ).body;
    expect(await localesOf(copy.layoutId)).toEqual(['en_US', 'es_ES']);
    expect((await env.client.get(`/v2/translations/layout/${copy.layoutId}/es_ES`)).body.data.content).toEqual({ footer: 'Hola' });
    // The copy's translations are its own: changing them leaves the original's.
    await upsertLayout(copy.layoutId, 'es_ES', { footer: 'Hola de nuevo' });
    expect((await env.client.get(`/v2/translations/layout/${original.layoutId}/es_ES`)).body.data.content).toEqual({ footer: 'Hola' });

    const plain = (await env.client.post(`/v2/layouts/${original.layoutId}/duplicate`, { name: `Plain ${rand()}` })).body;
    expect(plain.isTranslationEnabled).toBe(false);
    expect((await env.client.get(`/v2/translations/layout/${plain.layoutId}/en_US`)).status).toBe(404);
  });

  it('are copied by workflow sync with the layouts the workflow uses, replacing the target’s', async () => {
    const layout = await translatedLayout();
    await upsertLayout(layout.layoutId, 'en_US', { footer: 'Hello' });
    await upsertLayout(layout.layoutId, 'es_ES', { footer: 'Hola' });
    const workflowId = await createWorkflow(env.client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>', layoutId: layout.layoutId } },
    ]);
    const sync = () => env.client.put(`/v2/workflows/${workflowId}/sync`, { targetEnvironmentId: org.prod.id });
    expect((await sync()).status).toBe(200);
    const prod = org.prod.client;
    expect(await localesOf(layout.layoutId, prod)).toEqual(['en_US', 'es_ES']);
    expect((await prod.get(`/v2/translations/layout/${layout.layoutId}/es_ES`)).body.data.content).toEqual({ footer: 'Hola' });

    await upsertLayout(layout.layoutId, 'de_DE', { footer: 'Hallo' }, prod);
    await upsertLayout(layout.layoutId, 'en_US', { footer: 'Changed in production' }, prod);
    expect((await env.client.delete(`/v2/translations/layout/${layout.layoutId}/es_ES`)).status).toBe(204);
    expect((await sync()).status).toBe(200);
    expect(await localesOf(layout.layoutId, prod)).toEqual(['en_US']);
    expect((await prod.get(`/v2/translations/layout/${layout.layoutId}/en_US`)).body.data.content).toEqual({ footer: 'Hello' });
  });
});

describe('rendering', () => {
  const STEPS = [
    {
      name: 'Inbox',
      stepId: 'inbox',
      type: 'in_app',
      controlValues: {
        subject: '{{ t.inbox.subject }}',
        body: '{{t.greeting}}, {{ t.farewell }}',
        primaryAction: { label: '{{t.actions.open}}', redirect: { url: 'https://acme.test/{{t.path}}' } },
        redirect: { url: 'https://acme.test/{{t.path}}/all' },
        data: { label: '{{t.greeting}}' },
      },
    },
    {
      name: 'Mail',
      stepId: 'mail',
      type: 'email',
      controlValues: { subject: '{{T.email.subject}}', body: "<p>{{ t.email.body }}</p><p>{{ payload.count | append: 't.items' }}</p>" },
    },
    { name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: '{{t.sms}}' } },
  ];
  const EN = {
    greeting: 'Hello {{payload.name}}',
    farewell: 'Goodbye',
    inbox: { subject: 'Your order' },
    actions: { open: 'Open' },
    path: 'en',
    'email.subject': 'Order {{payload.count}} shipped',
    email: { body: 'It is on its way, {{ payload.name | upcase }}' },
    items: ' items',
    sms: 'Shipped: {{payload.count}}',
  };
  const ES = {
    greeting: 'Hola {{payload.name}}',
    inbox: { subject: 'Tu pedido' },
    actions: { open: 'Abrir' },
    path: 'es',
    'email.subject': 'Pedido {{payload.count}} enviado',
    items: ' artículos',
    sms: 'Enviado: {{payload.count}}',
  };

  let workflowId: string;
  beforeAll(async () => {
    workflowId = await translatedWorkflow(STEPS);
    await upsert(workflowId, 'en_US', EN);
    await upsert(workflowId, 'es_ES', ES);
  });

  /** Triggers for a new subscriber of that locale; what each channel delivered, and the activity. */
  /** `locale` as a subscriber's profile takes it: a BCP 47 tag (`es-ES`), matched as `es_ES`. */
  async function deliver(locale: string | undefined, id = workflowId) {
    const subscriberId = `sub-${rand()}`;
    const to = { subscriberId, email: `${subscriberId}@example.test`, phone: '+15550100', ...(locale !== undefined && { locale }) };
    const transactionId = await trigger(env.client, id, to, { name: 'Ada', count: 3 });
    const [notification] = await settled(env.client, transactionId);
    for (const job of notification.jobs) expect(job.status, JSON.stringify(job.executionDetails)).toBe('completed');
    const [inApp] = await messagesOf(env.client, subscriberId, 'in_app');
    const [email] = await messagesOf(env.client, subscriberId, 'email');
    const [sms] = await messagesOf(env.client, subscriberId, 'sms');
    return { inApp, email, sms, notification };
  }

  const warnings = (notification: any) =>
    notification.jobs.flatMap((job: any) =>
      job.executionDetails
        .filter((d: any) => d.status === 'Warning')
        .map((d: any) => ({ channel: job.type, detail: d.detail, raw: JSON.parse(d.raw) })),
    );

  it('renders every channel in the subscriber’s locale, key by key falling back to the default locale', async () => {
    const { inApp, email, sms, notification } = await deliver('es-ES');
    expect(inApp.subject).toBe('Tu pedido');
    // `farewell` is missing in es_ES: the default locale's text.
    expect(inApp.content).toBe('Hola Ada, Goodbye');
    expect(inApp.cta.action.buttons[0]).toMatchObject({ content: 'Abrir', url: 'https://acme.test/es' });
    expect(inApp.cta.data.url).toBe('https://acme.test/es/all');
    expect(email.subject).toBe('Pedido 3 enviado');
    expect(email.content).toContain('<p>It is on its way, ADA</p>');
    expect(email.content).toContain('<p>3 artículos</p>');
    expect(sms.content).toBe('Enviado: 3');
    expect(warnings(notification)).toEqual([]);
  });

  it('renders the default locale for a locale without content (de_DE) and for no locale', async () => {
    for (const locale of ['de-DE', undefined]) {
      const { inApp, email, sms, notification } = await deliver(locale);
      expect(inApp.subject).toBe('Your order');
      expect(inApp.content).toBe('Hello Ada, Goodbye');
      expect(inApp.cta.action.buttons[0]).toMatchObject({ content: 'Open', url: 'https://acme.test/en' });
      expect(email.subject).toBe('Order 3 shipped');
      expect(email.content).toContain('<p>3 items</p>');
      expect(sms.content).toBe('Shipped: 3');
      expect(warnings(notification)).toEqual([]);
    }
  });

  it('takes a language alone (es) as that language’s locale', async () => {
    const { inApp } = await deliver('es');
    expect(inApp.content).toBe('Hola Ada, Goodbye');
  });

  it('renders a key missing everywhere as the key, with a Warning detail naming it and the locale', async () => {
    const id = await translatedWorkflow([
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: '{{t.greeting}} {{t.nowhere.to.be.found}}' } },
      { name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: '{{t.sms}}' } },
    ]);
    await upsert(id, 'en_US', { greeting: 'Hello' });
    const { inApp, sms, notification } = await deliver('es-ES', id);
    expect(inApp.content).toBe('Hello nowhere.to.be.found');
    expect(sms.content).toBe('sms');
    const found = warnings(notification);
    expect(found).toHaveLength(2);
    expect(found[0].detail).toContain("'nowhere.to.be.found'");
    expect(found[0].detail).toContain('es_ES');
    expect(found[0].raw).toEqual({ keys: ['nowhere.to.be.found'], locale: 'es_ES', defaultLocale: 'en_US' });
    expect(found[1].raw.keys).toEqual(['sms']);
  });

  it('renders {{t.key}} empty when the workflow does not have translations enabled', async () => {
    const id = await translatedWorkflow(
      [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi {{t.greeting}}!' } }],
      false,
    );
    await upsert(id, 'en_US', { greeting: 'Hello' });
    const subscriberId = `sub-${rand()}`;
    const transactionId = await trigger(env.client, id, { subscriberId, locale: 'en-US' });
    const [notification] = await settled(env.client, transactionId);
    expect(warnings(notification)).toEqual([]);
    expect((await messagesOf(env.client, subscriberId))[0].content).toBe('Hi !');
  });

  it('renders a translation changed just before a trigger', async () => {
    const id = await translatedWorkflow([{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: '{{t.greeting}}' } }]);
    await upsert(id, 'en_US', { greeting: 'First' });
    expect((await deliver(undefined, id)).inApp.content).toBe('First');
    await upsert(id, 'en_US', { greeting: 'Second' });
    const subscriberId = `sub-${rand()}`;
    await settled(env.client, await trigger(env.client, id, { subscriberId }));
    expect((await messagesOf(env.client, subscriberId))[0].content).toBe('Second');
  });
});
