import { expect, vi } from 'vitest';
import { newId } from '#lib/ids.ts';
import type { ApiClient } from './api.ts';

// What tests of the delivery pipeline share: triggering through the API and waiting, with a
// bound, for what a user would poll (the activity feed, the subscriber's messages).

export const WAIT = { timeout: 30_000, interval: 200 };
export const rand = (): string => newId().slice(-8);

/** Creates an active workflow with these steps; its workflowId. */
export async function createWorkflow(
  client: ApiClient,
  steps: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const workflowId = `wf-${rand()}`;
  const res = await client.post('/v2/workflows', { name: workflowId, workflowId, active: true, steps, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return workflowId;
}

/** Triggers `name` and expects it accepted; its transactionId. */
export function trigger(
  client: ApiClient,
  name: string,
  to: unknown,
  payload: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Promise<string> {
  return triggerWith(client, { name, to, payload, ...extra });
}

/** Sends a trigger body as it is and expects it accepted; its transactionId. */
export async function triggerWith(client: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/v1/events/trigger', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // The reference's envelope, as @novu/node apps read it.
  expect(res.body.data.status).toBe('processed');
  return res.body.data.transactionId as string;
}

export async function activity(client: ApiClient, transactionId: string): Promise<any[]> {
  const res = await client.get(`/v1/notifications?transactionId=${transactionId}&limit=50`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const FINAL = ['completed', 'failed', 'merged', 'skipped', 'canceled'];

/** Waits until every job of the transaction's `count` notifications has reached a final status. */
export function settled(client: ApiClient, transactionId: string, count = 1): Promise<any[]> {
  return vi.waitFor(async () => {
    const items = await activity(client, transactionId);
    expect(items).toHaveLength(count);
    for (const item of items) for (const job of item.jobs) expect(FINAL).toContain(job.status);
    return items;
  }, WAIT);
}

/** The transaction's one notification, once its jobs are final. */
export async function settledOne(client: ApiClient, transactionId: string): Promise<any> {
  const [notification] = await settled(client, transactionId);
  return notification;
}

/** The subscriber's messages of a channel, newest first. */
export async function messagesOf(client: ApiClient, subscriberId: string, channel = 'in_app'): Promise<any[]> {
  const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=${channel}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}
