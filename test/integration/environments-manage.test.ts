import { Novu } from '@novu/api';
import { NovuError } from '@novu/api/models/errors/novuerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { apiClient, createTestOrg, startTestApi, type TestOrg } from '../support/api.ts';
import { createWorkflow, messagesOf, rand, settled, trigger } from '../support/pipeline.ts';

// Environments managed through `@novu/api` (issue 32, item 4): a custom environment made, changed
// and deleted, with the API key that acts in it; the tags of an environment's workflows; and the
// promotion of workflows from Development to Production, diffed first, then published and
// triggered there.

let api: LocalApi;
let org: TestOrg;
let other: TestOrg;
let dev: Novu;

beforeAll(async () => {
  api = await startTestApi();
  [org, other] = await Promise.all([createTestOrg(api.url), createTestOrg(api.url)]);
  dev = new Novu({ secretKey: org.dev.apiKey, serverURL: api.url });
});
afterAll(() => api.close());

const sdk = (apiKey: string) => new Novu({ secretKey: apiKey, serverURL: api.url });

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof NovuError ? error.statusCode : -1;
  }
}

const inApp = (body: string) => ({ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body } });

describe('a custom environment', () => {
  it('is made with an API key that works in it alone, changed, and deleted by that key', async () => {
    const name = `Staging ${rand()}`;
    const { result: created } = await dev.environments.create({ name, color: '#3366ff' });
    expect(created).toMatchObject({ name, organizationId: org.id, type: 'dev', identifier: expect.any(String) });
    const [key] = created.apiKeys!;
    expect(key!.key).toMatch(/^[0-9a-f]{48}$/);
    const staging = sdk(key!.key);

    // The new key acts in the new environment, which has what a new environment gets.
    const me = await apiClient(api.url, key!.key).get('/v1/environments/me');
    expect(me.body.data).toMatchObject({ _id: created.id, name });
    const { result: listed } = await staging.environments.list();
    expect(listed.map((e) => e.name)).toEqual(['Development', 'Production', name]);
    expect(listed.find((e) => e.id === created.id)!.apiKeys).toEqual([expect.objectContaining({ key: `********${key!.key.slice(-4)}` })]);
    // Integrations are listed organization-wide: the new environment's own are the starter ones.
    const integrations = (await apiClient(api.url, key!.key).get('/v1/integrations/active')).body.data as {
      channel: string;
      _environmentId: string;
    }[];
    expect(
      integrations
        .filter((i) => i._environmentId === created.id)
        .map((i) => i.channel)
        .sort(),
    ).toEqual(['email', 'in_app', 'sms']);

    // Isolated: Development's workflow is not there, the new one's is not in Development.
    const devWorkflow = await createWorkflow(org.dev.client, [inApp('dev')]);
    const stagingClient = apiClient(api.url, key!.key);
    const stagingWorkflow = await createWorkflow(stagingClient, [inApp('Hello from staging')], { tags: ['beta', 'alpha'] });
    expect((await stagingClient.get(`/v2/workflows/${devWorkflow}`)).status).toBe(404);
    expect((await org.dev.client.get(`/v2/workflows/${stagingWorkflow}`)).status).toBe(404);
    const subscriberId = `sub-${rand()}`;
    await settled(stagingClient, await trigger(stagingClient, stagingWorkflow, subscriberId));
    expect((await messagesOf(stagingClient, subscriberId))[0].content).toBe('Hello from staging');
    expect(await messagesOf(org.dev.client, subscriberId)).toEqual([]);

    // Tags of its workflows, by id or by application identifier; not Development's key.
    await createWorkflow(stagingClient, [inApp('x')], { tags: ['beta', 'gamma'] });
    expect((await staging.environments.getTags(created.id)).result).toEqual([{ name: 'alpha' }, { name: 'beta' }, { name: 'gamma' }]);
    expect((await staging.environments.getTags(created.identifier)).result).toHaveLength(3);
    expect(await statusOf(dev.environments.getTags(created.id))).toBe(403);

    // Changed by its own key: a new name and application identifier (an inbox opens with it).
    const identifier = `staging-${rand()}`;
    const { result: updated } = await staging.environments.update({ name: `${name} 2`, identifier, color: '#112233' }, created.id);
    expect(updated).toMatchObject({ id: created.id, name: `${name} 2`, identifier });
    const session = await apiClient(api.url).post('/v1/inbox/session', { applicationIdentifier: identifier, subscriber: { subscriberId } });
    expect(session.status).toBe(201);
    const stale = await apiClient(api.url).post('/v1/inbox/session', {
      applicationIdentifier: created.identifier,
      subscriber: { subscriberId },
    });
    expect(stale.status).not.toBe(201);
    // Development's key may neither change nor delete it.
    expect(await statusOf(dev.environments.update({ color: '#000000' }, created.id))).toBe(403);
    expect(await statusOf(dev.environments.delete(created.id))).toBe(403);

    await staging.environments.delete(created.id);
    expect(me.status).toBe(200);
    expect((await apiClient(api.url, key!.key).get('/v1/environments/me')).status).toBe(401);
    expect((await dev.environments.list()).result.map((e) => e.id)).not.toContain(created.id);
    // Its name is free again.
    const { result: again } = await dev.environments.create({ name, color: '#3366ff' });
    expect(again.name).toBe(name);
    await sdk(again.apiKeys![0]!.key).environments.delete(again.id);
  });

  it('refuses the protected names, a taken name and bad input, and writes nothing', async () => {
    const before = (await dev.environments.list()).result.length;
    expect(await statusOf(dev.environments.create({ name: 'production', color: '#ffffff' }))).toBe(422);
    expect(await statusOf(dev.environments.create({ name: ' Development ', color: '#ffffff' }))).toBe(422);
    expect(await statusOf(dev.environments.create({ name: 'Blue', color: 'blue' }))).toBe(422);
    const raw = await org.dev.client.post('/v1/environments', { name: 'No color' });
    expect(raw.status).toBe(422);
    expect(raw.body.errors.color).toBeDefined();
    const name = `Taken ${rand()}`;
    const { result } = await dev.environments.create({ name, color: '#ffffff' });
    expect(await statusOf(dev.environments.create({ name: name.toUpperCase(), color: '#ffffff' }))).toBe(400);
    expect((await dev.environments.list()).result.length).toBe(before + 1);
    await sdk(result.apiKeys![0]!.key).environments.delete(result.id);
  });

  it('never deletes or renames Development or Production, and finds no other organization’s', async () => {
    expect(await statusOf(dev.environments.delete(org.dev.id))).toBe(400);
    expect(await statusOf(sdk(org.prod.apiKey).environments.delete(org.prod.id))).toBe(400);
    expect(await statusOf(dev.environments.delete(org.prod.id))).toBe(403);
    expect(await statusOf(dev.environments.update({ name: 'Renamed' }, org.dev.id))).toBe(422);
    expect(await statusOf(dev.environments.delete(other.dev.id))).toBe(404);
    expect(await statusOf(dev.environments.update({ color: '#000000' }, other.dev.id))).toBe(404);
    expect(await statusOf(dev.environments.getTags(other.dev.id))).toBe(404);
    expect((await dev.environments.list()).result.map((e) => e.name)).toEqual(['Development', 'Production']);
  });
});

describe('promotion from Development to Production', () => {
  const prodWorkflow = (workflowId: string) => org.prod.client.get(`/v2/workflows/${workflowId}`);

  it('shows a new, a changed and a removed workflow, and publishes each into Production', async () => {
    const workflowId = await createWorkflow(org.dev.client, [inApp('Hello v1')], { tags: ['promo'] });
    const { result: first } = await dev.environments.diff({}, org.prod.id);
    expect(first).toMatchObject({ sourceEnvironmentId: org.dev.id, targetEnvironmentId: org.prod.id });
    const added = first.resources.find((r) => r.sourceResource?.name === workflowId)!;
    expect(added).toMatchObject({ resourceType: 'REGULAR', targetResource: null, summary: { added: 2 } });
    expect(added.changes.map((c) => c.action)).toEqual(['added', 'added']);
    expect(first.summary.hasChanges).toBe(true);

    // A dry run changes nothing.
    const { result: dry } = await dev.environments.publish({ dryRun: true }, org.prod.id);
    expect(dry.results[0]!.successful).toContainEqual(expect.objectContaining({ resourceName: workflowId, action: 'created' }));
    expect((await prodWorkflow(workflowId)).status).toBe(404);

    const { result: published } = await dev.environments.publish(
      { resources: [{ resourceType: 'REGULAR', resourceId: workflowId }] },
      org.prod.id,
    );
    expect(published.results[0]!.successful).toEqual([
      { resourceType: 'REGULAR', resourceId: expect.any(String), resourceName: workflowId, action: 'created' },
    ]);
    expect(published.summary).toMatchObject({ successful: 1, failed: 0 });
    // Triggerable in Production with Production's key.
    const subscriberId = `sub-${rand()}`;
    await settled(org.prod.client, await trigger(org.prod.client, workflowId, subscriberId));
    expect((await messagesOf(org.prod.client, subscriberId))[0].content).toBe('Hello v1');
    const unchanged = (await dev.environments.diff({ sourceEnvironmentId: org.dev.id }, org.prod.id)).result.resources.find(
      (r) => r.sourceResource?.name === workflowId,
    )!;
    expect(unchanged.changes).toEqual([expect.objectContaining({ action: 'unchanged' })]);

    // A change of the step's content shows as the workflow's and the step's.
    const current =
      (await org.dev.client.get(`/v2/workflows/${workflowId}`)).body.data ?? (await org.dev.client.get(`/v2/workflows/${workflowId}`)).body;
    const put = await org.dev.client.put(`/v2/workflows/${workflowId}`, {
      name: current.name,
      workflowId,
      tags: ['promo'],
      active: true,
      steps: [{ ...inApp('Hello v2'), _id: current.steps[0]._id }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const modified = (await dev.environments.diff({}, org.prod.id)).result.resources.find((r) => r.sourceResource?.name === workflowId)!;
    expect(modified.changes.map((c) => [c.action, c.stepType])).toEqual([
      ['modified', undefined],
      ['modified', 'in_app'],
    ]);
    expect(modified.changes[1]!.diffs).toEqual({
      previous: expect.objectContaining({ controlValues: { body: 'Hello v1' } }),
      new: expect.objectContaining({ controlValues: { body: 'Hello v2' } }),
    });
    const { result: second } = await dev.environments.publish({}, org.prod.id);
    expect(second.results[0]!.successful).toContainEqual(expect.objectContaining({ resourceName: workflowId, action: 'updated' }));
    const again = `sub-${rand()}`;
    await settled(org.prod.client, await trigger(org.prod.client, workflowId, again));
    expect((await messagesOf(org.prod.client, again))[0].content).toBe('Hello v2');

    // Removed in Development: removed from Production by the next publish.
    expect((await org.dev.client.delete(`/v2/workflows/${workflowId}`)).status).toBe(204);
    const deleted = (await dev.environments.diff({}, org.prod.id)).result.resources.find((r) => r.targetResource?.name === workflowId)!;
    expect(deleted.changes[0]).toMatchObject({ action: 'deleted', sourceResource: null });
    const { result: third } = await dev.environments.publish({}, org.prod.id);
    expect(third.results[0]!.successful).toContainEqual(expect.objectContaining({ resourceName: workflowId, action: 'deleted' }));
    expect((await prodWorkflow(workflowId)).status).toBe(404);
  });

  it('publishes only from the caller’s own environment, to another of its organization', async () => {
    const prod = sdk(org.prod.apiKey);
    // Production's key, Development by default as the source: not its own.
    expect(await statusOf(prod.environments.diff({}, org.prod.id))).toBe(403);
    expect(await statusOf(prod.environments.diff({ sourceEnvironmentId: org.prod.id }, org.prod.id))).toBe(400);
    expect(await statusOf(prod.environments.diff({ sourceEnvironmentId: org.prod.id }, org.dev.id))).toBeUndefined();
    expect(await statusOf(prod.environments.publish({ sourceEnvironmentId: org.dev.id }, org.prod.id))).toBe(403);
    expect(await statusOf(dev.environments.publish({}, org.dev.id))).toBe(400);
    expect(await statusOf(dev.environments.publish({}, other.prod.id))).toBe(404);
    expect(await statusOf(dev.environments.diff({ sourceEnvironmentId: other.dev.id }, org.prod.id))).toBe(404);
  });
});
