import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// Contexts through the reference's server SDK (`@novu/api`, which checks every answer against
// its models): the five /v2/contexts operations, what a trigger's `context` does to them, and
// their data as templates and step conditions see it. Every test has its own organization.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const sdk = (env: TestEnv) => new Novu({ secretKey: env.apiKey, serverURL: api.url });
const NO_RETRIES = { retries: { strategy: 'none' as const } };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('contexts', () => {
  it('creates, retrieves, replaces the data of, lists and deletes a context', async () => {
    const { dev } = await createTestOrg(api.url);
    const novu = sdk(dev);
    const created = await novu.contexts.create({ type: 'tenant', id: 'acme', data: { name: 'Acme', plan: 'pro' } });
    expect(created.result).toEqual({ type: 'tenant', id: 'acme', data: { name: 'Acme', plan: 'pro' }, createdAt: ISO, updatedAt: ISO });
    // The SDK retries a 409 (its answer to an idempotency key in use) unless told not to.
    await expect(novu.contexts.create({ type: 'tenant', id: 'acme' }, undefined, NO_RETRIES)).rejects.toMatchObject({ statusCode: 409 });

    expect((await novu.contexts.retrieve('acme', 'tenant')).result).toEqual(created.result);

    // The data is replaced whole, as the reference does; the type, id and creation time stay.
    const updated = await novu.contexts.update({ type: 'tenant', id: 'acme', updateContextRequestDto: { data: { region: 'eu' } } });
    expect(updated.result).toMatchObject({ type: 'tenant', id: 'acme', data: { region: 'eu' }, createdAt: created.result.createdAt });
    expect((await novu.contexts.retrieve('acme', 'tenant')).result.data).toEqual({ region: 'eu' });

    await novu.contexts.delete('acme', 'tenant');
    await expect(novu.contexts.retrieve('acme', 'tenant')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.contexts.delete('acme', 'tenant')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.contexts.update({ type: 'tenant', id: 'acme', updateContextRequestDto: { data: {} } })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('lists the contexts newest first in cursor pages, filtered by id and by a part of type:id', async () => {
    const { dev } = await createTestOrg(api.url);
    const novu = sdk(dev);
    const names = ['tenant:acme', 'tenant:globex', 'project:apollo', 'project:gemini', 'team:acme-ops'];
    for (const name of names) {
      const [type, id] = name.split(':') as [string, string];
      await novu.contexts.create({ type, id });
    }
    const keyOf = (c: { type: string; id: string }) => `${c.type}:${c.id}`;

    const first = await novu.contexts.list({ limit: 2 });
    expect(first.result.data.map(keyOf)).toEqual(['team:acme-ops', 'project:gemini']);
    expect(first.result).toMatchObject({ totalCount: 5, totalCountCapped: false, previous: null });
    const second = await novu.contexts.list({ limit: 2, after: first.result.next! });
    expect(second.result.data.map(keyOf)).toEqual(['project:apollo', 'tenant:globex']);
    const third = await novu.contexts.list({ limit: 2, after: second.result.next! });
    expect(third.result.data.map(keyOf)).toEqual(['tenant:acme']);
    expect(third.result.next).toBeNull();
    const back = await novu.contexts.list({ limit: 2, before: third.result.previous! });
    expect(back.result.data.map(keyOf)).toEqual(['project:apollo', 'tenant:globex']);

    const acme = await novu.contexts.list({ search: 'ACME' });
    expect(acme.result.data.map(keyOf)).toEqual(['team:acme-ops', 'tenant:acme']);
    expect(acme.result.totalCount).toBe(2);
    expect((await novu.contexts.list({ id: 'apollo' })).result.data.map(keyOf)).toEqual(['project:apollo']);
    expect((await novu.contexts.list({ orderDirection: 'ASC', limit: 1 })).result.data.map(keyOf)).toEqual(['tenant:acme']);
  });

  it('keeps one environment’s contexts out of another’s reach', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const other = await createTestOrg(api.url);
    await sdk(dev).contexts.create({ type: 'tenant', id: 'acme', data: { secret: 'dev only' } });
    for (const env of [prod, other.dev]) {
      const novu = sdk(env);
      await expect(novu.contexts.retrieve('acme', 'tenant')).rejects.toMatchObject({ statusCode: 404 });
      await expect(novu.contexts.update({ type: 'tenant', id: 'acme', updateContextRequestDto: { data: {} } })).rejects.toMatchObject({
        statusCode: 404,
      });
      await expect(novu.contexts.delete('acme', 'tenant')).rejects.toMatchObject({ statusCode: 404 });
      expect((await novu.contexts.list({})).result).toMatchObject({ data: [], totalCount: 0 });
      // The same type and id are free there: each environment has its own.
      await novu.contexts.create({ type: 'tenant', id: 'acme', data: { mine: true } });
    }
    expect((await sdk(dev).contexts.retrieve('acme', 'tenant')).result.data).toEqual({ secret: 'dev only' });
  });

  it('refuses bad input with a 422 and writes nothing', async () => {
    const { dev } = await createTestOrg(api.url);
    for (const body of [
      { type: 'tenant' },
      { type: 'ten ant', id: 'acme' },
      { type: 'tenant', id: 'x'.repeat(101) },
      { type: 'tenant', id: 'acme', data: 'plain' },
      { type: 'tenant', id: 'acme', data: { blob: 'x'.repeat(65 * 1024) } },
      { type: 'tenant', id: 'acme', bridgeUrl: 'ftp://example.com' },
    ]) {
      const res = await dev.client.post('/v2/contexts', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.errors).toBeDefined();
    }
    expect((await dev.client.get('/v2/contexts')).body.data).toEqual([]);
    expect((await dev.client.get('/v2/contexts?orderBy=updatedAt')).status).toBe(422);
    expect((await dev.client.get('/v2/contexts?after=nonsense')).status).toBe(422);
    await sdk(dev).contexts.create({ type: 'tenant', id: 'acme' });
    expect((await dev.client.patch('/v2/contexts/tenant/acme', {})).status).toBe(422);
  });
});

describe('contexts of triggers', () => {
  it('creates the contexts a trigger names, keeps their stored data, and renders it', async () => {
    const { dev } = await createTestOrg(api.url);
    const novu = sdk(dev);
    const workflowId = await createWorkflow(dev.client, [
      {
        name: 'Inbox',
        stepId: 'inbox',
        type: 'in_app',
        controlValues: { body: 'For {{context.tenant.data.name}} ({{context.tenant.id}})' },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    const delivered = (count: number) =>
      vi.waitFor(async () => {
        const found = await messagesOf(dev.client, subscriberId);
        expect(found).toHaveLength(count);
        return found.map((m) => m.content);
      }, WAIT);

    await trigger(dev.client, workflowId, subscriberId, {}, { context: { tenant: { id: 'acme', data: { name: 'Acme' } } } });
    expect(await delivered(1)).toEqual(['For Acme (acme)']);
    // Created by the trigger, with the data it gave.
    const stored = await novu.contexts.retrieve('acme', 'tenant');
    expect(stored.result).toMatchObject({ type: 'tenant', id: 'acme', data: { name: 'Acme' } });

    // A later trigger's data does not change an existing context: the stored data renders.
    await trigger(dev.client, workflowId, subscriberId, {}, { context: { tenant: { id: 'acme', data: { name: 'Other' } } } });
    expect(await delivered(2)).toEqual(['For Acme (acme)', 'For Acme (acme)']);
    expect((await novu.contexts.retrieve('acme', 'tenant')).result.data).toEqual({ name: 'Acme' });

    // Changed through the API, the data renders in the next trigger named by its id alone.
    await novu.contexts.update({ type: 'tenant', id: 'acme', updateContextRequestDto: { data: { name: 'Acme Inc' } } });
    await trigger(dev.client, workflowId, subscriberId, {}, { context: { tenant: 'acme' } });
    expect((await delivered(3))[0]).toBe('For Acme Inc (acme)');

    // A context created beforehand through the API renders when a trigger names only its id.
    await novu.contexts.create({ type: 'tenant', id: 'globex', data: { name: 'Globex' } });
    await trigger(dev.client, workflowId, subscriberId, {}, { context: { tenant: 'globex' } });
    expect((await delivered(4))[0]).toBe('For Globex (globex)');
  });

  it('lets step conditions read the stored data', async () => {
    const { dev } = await createTestOrg(api.url);
    const novu = sdk(dev);
    await novu.contexts.create({ type: 'tenant', id: 'acme', data: { plan: 'pro' } });
    await novu.contexts.create({ type: 'tenant', id: 'globex', data: { plan: 'free' } });
    const workflowId = await createWorkflow(dev.client, [
      {
        name: 'Pro',
        stepId: 'pro',
        type: 'in_app',
        controlValues: { body: 'for pro', skip: { '==': [{ var: 'context.tenant.data.plan' }, 'pro'] } },
      },
      {
        name: 'Free',
        stepId: 'free',
        type: 'in_app',
        controlValues: { body: 'for free', skip: { '==': [{ var: 'context.tenant.data.plan' }, 'free'] } },
      },
    ]);
    const pro = `sub-${rand()}`;
    const free = `sub-${rand()}`;
    await trigger(dev.client, workflowId, pro, {}, { context: { tenant: 'acme' } });
    await trigger(dev.client, workflowId, free, {}, { context: { tenant: { id: 'globex', data: { plan: 'pro' } } } });
    for (const [subscriberId, content] of [
      [pro, 'for pro'],
      [free, 'for free'],
    ] as const) {
      await vi.waitFor(async () => {
        const found = await messagesOf(dev.client, subscriberId);
        expect(found.map((m) => m.content)).toEqual([content]);
      }, WAIT);
    }
  });
});
