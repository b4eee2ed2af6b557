import { Novu } from '@novu/api';
import { NovuError } from '@novu/api/models/errors/novuerror.js';
import { SDKError } from '@novu/api/models/errors/sdkerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { getItem } from '#lib/store/get-item.ts';
import { keys } from '#lib/store/keys.ts';
import { createTestOrg, startTestApi, type TestOrg } from '../support/api.ts';
import { createWorkflow, messagesOf, rand, settled, trigger } from '../support/pipeline.ts';

// Environment variables through `@novu/api` (issue 32, item 5): the organization's variables with
// a value per environment, used in a step as `{{env.KEY}}` and rendered into what is delivered;
// a secret's value never shown and never stored in clear; the workflows that use one.

let api: LocalApi;
let org: TestOrg;
let other: TestOrg;
let dev: Novu;
let prod: Novu;

beforeAll(async () => {
  api = await startTestApi();
  [org, other] = await Promise.all([createTestOrg(api.url), createTestOrg(api.url)]);
  dev = new Novu({ secretKey: org.dev.apiKey, serverURL: api.url });
  prod = new Novu({ secretKey: org.prod.apiKey, serverURL: api.url });
});
afterAll(() => api.close());

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof NovuError) return error.statusCode;
    if (error instanceof SDKError) return error.statusCode;
    return -1;
  }
}

const MASK = '••••••••';
const key = () => `VAR_${rand().toUpperCase()}`;

describe('environment variables', () => {
  it('render in an in-app step with each environment’s own value', async () => {
    const baseUrl = key();
    await dev.environmentVariables.create({ key: baseUrl, values: [{ environmentId: org.dev.id, value: 'https://dev.example' }] });
    await prod.environmentVariables.update({ values: [{ environmentId: org.prod.id, value: 'https://example.com' }] }, baseUrl);
    const step = {
      name: 'Inbox',
      stepId: 'inbox',
      type: 'in_app',
      controlValues: { body: `Open {{env.${baseUrl}}}/orders/{{payload.id}}` },
    };
    const inDev = await createWorkflow(org.dev.client, [step]);
    const inProd = await createWorkflow(org.prod.client, [step]);

    const devSubscriber = `sub-${rand()}`;
    const [devNotification] = await settled(org.dev.client, await trigger(org.dev.client, inDev, devSubscriber, { id: 7 }));
    expect(devNotification.jobs.map((j: { status: string }) => j.status)).toEqual(['completed']);
    expect((await messagesOf(org.dev.client, devSubscriber))[0].content).toBe('Open https://dev.example/orders/7');
    const prodSubscriber = `sub-${rand()}`;
    await settled(org.prod.client, await trigger(org.prod.client, inProd, prodSubscriber, { id: 8 }));
    expect((await messagesOf(org.prod.client, prodSubscriber))[0].content).toBe('Open https://example.com/orders/8');

    // Each key sees its own environment's value of the organization's variable.
    expect((await dev.environmentVariables.retrieve(baseUrl)).result.values).toEqual([
      { environmentId: org.dev.id, value: 'https://dev.example' },
    ]);
    expect((await prod.environmentVariables.retrieve(baseUrl)).result.values).toEqual([
      { environmentId: org.prod.id, value: 'https://example.com' },
    ]);

    // A value changed before a trigger is the one rendered.
    await dev.environmentVariables.update({ values: [{ environmentId: org.dev.id, value: 'https://dev2.example' }] }, baseUrl);
    const later = `sub-${rand()}`;
    await settled(org.dev.client, await trigger(org.dev.client, inDev, later, { id: 9 }));
    expect((await messagesOf(org.dev.client, later))[0].content).toBe('Open https://dev2.example/orders/9');

    // The workflows that use it: the caller's environment's.
    expect((await dev.environmentVariables.usage(baseUrl)).result.workflows).toEqual([{ name: inDev, workflowId: inDev }]);
    expect((await prod.environmentVariables.usage(baseUrl)).result.workflows).toEqual([{ name: inProd, workflowId: inProd }]);
    const unused = key();
    await dev.environmentVariables.create({ key: unused });
    expect((await dev.environmentVariables.usage(unused)).result.workflows).toEqual([]);
    // A key this one starts with is not used by these workflows.
    const shorter = baseUrl.slice(0, -1);
    await dev.environmentVariables.create({ key: shorter });
    expect((await dev.environmentVariables.usage(shorter)).result.workflows).toEqual([]);
  });

  it('keeps a secret masked in every answer and sealed at rest, and renders it', async () => {
    const token = key();
    const secret = `s3cr3t-${rand()}`;
    const { result: created } = await dev.environmentVariables.create({
      key: token,
      isSecret: true,
      values: [{ environmentId: org.dev.id, value: secret }],
    });
    expect(created).toMatchObject({ key: token, isSecret: true, type: 'string', organizationId: org.id });
    expect(created.values).toEqual([{ environmentId: org.dev.id, value: MASK }]);
    expect((await dev.environmentVariables.retrieve(token)).result.values[0]!.value).toBe(MASK);
    const listed = (await dev.environmentVariables.list(token.toLowerCase())).result;
    expect(listed.map((v) => [v.key, v.values])).toEqual([[token, [{ environmentId: org.dev.id, value: MASK }]]]);
    const stored = await getItem(keys.environmentVariable(org.id, token));
    expect(JSON.stringify(stored)).not.toContain(secret);

    // The mask is never taken for a value.
    expect(await statusOf(dev.environmentVariables.update({ values: [{ environmentId: org.dev.id, value: MASK }] }, token))).toBe(400);

    const workflowId = await createWorkflow(org.dev.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: `token={{env.${token}}}` } },
    ]);
    const subscriberId = `sub-${rand()}`;
    await settled(org.dev.client, await trigger(org.dev.client, workflowId, subscriberId));
    expect((await messagesOf(org.dev.client, subscriberId))[0].content).toBe(`token=${secret}`);
    // No issue is raised for `env.*` in the step.
    const view = await org.dev.client.get(`/v2/workflows/${workflowId}`);
    expect(JSON.stringify(view.body)).not.toContain('ILLEGAL_VARIABLE');
  });

  it('renames, refuses a taken key, and deletes environment by environment', async () => {
    const first = key();
    const second = key();
    await dev.environmentVariables.create({ key: first, values: [{ environmentId: org.dev.id, value: 'a' }] });
    await dev.environmentVariables.create({ key: second });
    // Without the client's retries, which try a 409 again for up to an hour.
    const once = { retries: { strategy: 'none' as const } };
    expect(await statusOf(dev.environmentVariables.create({ key: first }, undefined, once))).toBe(409);
    expect(await statusOf(dev.environmentVariables.update({ key: second }, first, undefined, once))).toBe(409);
    const renamed = `${first}_NEW`;
    const { result } = await dev.environmentVariables.update({ key: renamed }, first);
    expect(result).toMatchObject({ key: renamed, values: [{ environmentId: org.dev.id, value: 'a' }] });
    expect(await statusOf(dev.environmentVariables.retrieve(first))).toBe(404);

    // Production's value, then Development's: the variable goes with the last one.
    await prod.environmentVariables.update({ values: [{ environmentId: org.prod.id, value: 'b' }] }, renamed);
    await dev.environmentVariables.delete(renamed);
    expect((await dev.environmentVariables.retrieve(renamed)).result.values).toEqual([]);
    expect((await prod.environmentVariables.retrieve(renamed)).result.values).toEqual([{ environmentId: org.prod.id, value: 'b' }]);
    expect(await statusOf(dev.environmentVariables.delete(renamed))).toBe(404);
    await prod.environmentVariables.delete(renamed);
    expect(await statusOf(prod.environmentVariables.retrieve(renamed))).toBe(404);
    // One without values goes at once.
    await dev.environmentVariables.delete(second);
    expect(await statusOf(dev.environmentVariables.retrieve(second))).toBe(404);
  });

  it('sets only the caller’s environment’s value, and keeps organizations apart', async () => {
    const name = key();
    expect(await statusOf(dev.environmentVariables.create({ key: name, values: [{ environmentId: org.prod.id, value: 'x' }] }))).toBe(403);
    expect(await statusOf(dev.environmentVariables.create({ key: name, values: [{ environmentId: other.dev.id, value: 'x' }] }))).toBe(404);
    expect(await statusOf(dev.environmentVariables.retrieve(name))).toBe(404);
    await dev.environmentVariables.create({ key: name, values: [{ environmentId: org.dev.id, value: 'mine' }] });
    expect(await statusOf(dev.environmentVariables.update({ values: [{ environmentId: org.prod.id, value: 'x' }] }, name))).toBe(403);
    const outsider = new Novu({ secretKey: other.dev.apiKey, serverURL: api.url });
    expect(await statusOf(outsider.environmentVariables.retrieve(name))).toBe(404);
    expect(await statusOf(outsider.environmentVariables.usage(name))).toBe(404);
    expect(await statusOf(outsider.environmentVariables.delete(name))).toBe(404);
    expect((await outsider.environmentVariables.list()).result.map((v) => v.key)).not.toContain(name);
  });

  it('refuses bad input with a 422 and stores nothing', async () => {
    for (const body of [
      { key: '1ABC' },
      { key: 'A-B' },
      { key: '' },
      { key: 'OK', type: 'number' },
      { key: 'OK', values: [{ value: 'x' }] },
    ]) {
      const res = await org.dev.client.post('/v1/environment-variables', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors).toBeDefined();
    }
    const dup = await org.dev.client.post('/v1/environment-variables', {
      key: 'DUP',
      values: [
        { _environmentId: org.dev.id, value: 'a' },
        { _environmentId: org.dev.id, value: 'b' },
      ],
    });
    expect(dup.status).toBe(422);
    expect((await org.dev.client.patch('/v1/environment-variables/NOPE', {})).status).toBe(400);
    expect((await dev.environmentVariables.list()).result.map((v) => v.key)).not.toContain('OK');
  });
});
