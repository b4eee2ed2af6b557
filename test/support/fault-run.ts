import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { expect } from 'vitest';
import type { StoredJob, StoredNotification } from '#lib/pipeline/model.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { ENV } from '#lib/config.ts';
import { sqs } from '#lib/queue/client.ts';
import type { ApiClient } from './api.ts';
import { scanTable } from './table-scan.ts';

// What the fault tests need around a run of many events: bulk triggers, waiting until the
// queues are drained, and an exact account of what happened to every event, read from the table
// (one scan of the run's own table) and the demo providers' sink.

const BULK = 100;

export interface RunEvent {
  transactionId: string;
  subscriberId: string;
  email: string;
}

/** Triggers `count` events, one subscriber each, `BULK` per request, a few requests at a time. */
export async function triggerMany(client: ApiClient, workflowId: string, prefix: string, count: number): Promise<RunEvent[]> {
  const events: RunEvent[] = Array.from({ length: count }, (_, i) => {
    const subscriberId = `${prefix}-${i}`;
    return { transactionId: `${prefix}-tx-${i}`, subscriberId, email: `${subscriberId}@example.com` };
  });
  const chunks: RunEvent[][] = [];
  for (let i = 0; i < events.length; i += BULK) chunks.push(events.slice(i, i + BULK));
  let next = 0;
  const sender = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const res = await client.post('/v1/events/trigger/bulk', {
        events: chunk.map((e, n) => ({
          name: workflowId,
          transactionId: e.transactionId,
          to: { subscriberId: e.subscriberId, email: e.email, firstName: `Sub ${n}` },
          payload: { n },
        })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const statuses = (res.body as { status: string }[]).map((r) => r.status);
      expect(
        statuses.every((s) => s === 'processed'),
        JSON.stringify(res.body),
      ).toBe(true);
    }
  };
  await Promise.all(Array.from({ length: 4 }, sender));
  return events;
}

/** Messages in the queues: visible, in flight and delayed. */
export async function queueDepth(queueUrls: readonly string[]): Promise<number> {
  let total = 0;
  for (const QueueUrl of queueUrls) {
    const { Attributes } = await sqs().send(
      new GetQueueAttributesCommand({
        QueueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    total +=
      Number(Attributes?.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0) +
      Number(Attributes?.ApproximateNumberOfMessagesDelayed ?? 0);
  }
  return total;
}

/**
 * Waits until the queues have stayed empty for two polls in a row (bounded by `timeoutMs`). A long
 * wait says how deep the queues were as it went, so a run that stalls shows where.
 */
export async function drained(queueUrls: readonly string[], timeoutMs: number, onPoll?: (depth: number) => void): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const depths: number[] = [];
  let emptyPolls = 0;
  while (emptyPolls < 2) {
    if (Date.now() > deadline) throw new Error(`queues not drained within ${timeoutMs} ms (depth at each poll: ${depths.join(' ')})`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const depth = await queueDepth(queueUrls);
    depths.push(depth);
    if (depths.length % 30 === 0)
      console.error(`still draining after ${Math.round((Date.now() - started) / 1000)} s: ${depths.slice(-30).join(' ')}`);
    onPoll?.(depth);
    emptyPolls = depth === 0 ? emptyPolls + 1 : 0;
  }
}

export interface TableContents {
  notifications: StoredNotification[];
  messages: StoredMessage[];
}

/** The notifications and messages of a workflow, from one scan of the (test-owned) table. */
export async function readRun(workflowId: string): Promise<TableContents> {
  const out: TableContents = { notifications: [], messages: [] };
  const items = scanTable({
    FilterExpression: '#type IN (:n, :m) AND templateIdentifier = :wf',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':n': 'Notification', ':m': 'Message', ':wf': workflowId },
  });
  for await (const item of items) {
    if (item.type === 'Notification') out.notifications.push(item as StoredNotification);
    else out.messages.push(item as StoredMessage);
  }
  return out;
}

export interface SinkRecord {
  id: string;
  channel: string;
  to: string;
}

export async function sinkRecords(channel: string): Promise<SinkRecord[]> {
  const text = await readFile(join(process.env[ENV.deliverySinkDir]!, `${channel}.jsonl`), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SinkRecord);
}

const FINAL: readonly StoredJob['status'][] = ['completed', 'failed', 'merged', 'skipped', 'canceled'];

export interface Account {
  events: number;
  notifications: number;
  inApp: { delivered: number; failed: number };
  email: { delivered: number; failed: Record<string, number>; sentBeforeOutcomeUnknown: number };
  /** Transactions with a failed step, to look at through the activity feed. */
  failedTransactions: string[];
  /** Every problem found; empty when every event is accounted for exactly. */
  problems: string[];
}

/**
 * Every event of the run accounted for exactly: one notification; its in-app job completed with
 * exactly one in-app message, or failed with a reason; its email job completed with exactly one
 * `sent` message and exactly one sink record of that message, or failed with a reason and never
 * sent twice (at most one sink record: one when the worker died between the send and recording
 * it, so the job is failed as "outcome unknown").
 */
export function account(events: readonly RunEvent[], contents: TableContents, sink: readonly SinkRecord[]): Account {
  const problems: string[] = [];
  const result: Account = {
    events: events.length,
    notifications: 0,
    inApp: { delivered: 0, failed: 0 },
    email: { delivered: 0, failed: {}, sentBeforeOutcomeUnknown: 0 },
    failedTransactions: [],
    problems,
  };
  const byTransaction = new Map<string, StoredNotification[]>();
  for (const n of contents.notifications) byTransaction.set(n.transactionId, [...(byTransaction.get(n.transactionId) ?? []), n]);
  const messagesByNotification = new Map<string, StoredMessage[]>();
  for (const m of contents.messages)
    messagesByNotification.set(m._notificationId, [...(messagesByNotification.get(m._notificationId) ?? []), m]);
  const sinkByTo = new Map<string, SinkRecord[]>();
  for (const r of sink) sinkByTo.set(r.to, [...(sinkByTo.get(r.to) ?? []), r]);

  for (const event of events) {
    const found = byTransaction.get(event.transactionId) ?? [];
    if (found.length !== 1) {
      problems.push(`${event.transactionId}: ${found.length} notifications`);
      continue;
    }
    result.notifications++;
    const n = found[0]!;
    const messages = messagesByNotification.get(n._id) ?? [];
    const sent = sinkByTo.get(event.email) ?? [];
    if (n.jobs.some((j) => j.status === 'failed')) result.failedTransactions.push(event.transactionId);
    for (const job of n.jobs) {
      if (!FINAL.includes(job.status)) {
        const last = job.executionDetails.at(-1);
        problems.push(
          `${event.transactionId}: job ${job.index} (${job.type}) is ${job.status} since ${job.updatedAt}` +
            `${job.leaseUntil ? `, lease until ${job.leaseUntil}` : ''}, last detail "${last?.detail ?? ''}"`,
        );
        continue;
      }
      const own = messages.filter((m) => m.channel === job.type);
      if (job.type === 'in_app') {
        if (job.status === 'completed') {
          result.inApp.delivered++;
          if (own.length !== 1) problems.push(`${event.transactionId}: in-app completed with ${own.length} messages`);
        } else if (job.status === 'failed') {
          result.inApp.failed++;
          if (!job.error) problems.push(`${event.transactionId}: in-app failed without a reason`);
          if (own.length !== 0) problems.push(`${event.transactionId}: in-app failed with ${own.length} messages`);
        } else {
          problems.push(`${event.transactionId}: in-app ${job.status}`);
        }
      } else if (job.type === 'email') {
        if (sent.length > 1) problems.push(`${event.transactionId}: email sent ${sent.length} times`);
        if (own.length > 1) problems.push(`${event.transactionId}: ${own.length} email messages`);
        if (job.status === 'completed') {
          result.email.delivered++;
          if (own.length !== 1 || own[0]!.status !== 'sent')
            problems.push(`${event.transactionId}: email completed, messages ${JSON.stringify(own.map((m) => m.status))}`);
          if (sent.length !== 1 || sent[0]!.id !== own[0]?.identifier)
            problems.push(`${event.transactionId}: email completed, ${sent.length} sink records`);
        } else if (job.status === 'failed') {
          const reason = job.error ?? '';
          if (!reason || !job.executionDetails.some((d) => d.status === 'Failed'))
            problems.push(`${event.transactionId}: email failed without a reason`);
          const kind = reasonKind(reason);
          result.email.failed[kind] = (result.email.failed[kind] ?? 0) + 1;
          if (sent.length === 1) {
            if (kind === 'outcome unknown') result.email.sentBeforeOutcomeUnknown++;
            else problems.push(`${event.transactionId}: email failed (${reason}) but was sent`);
          }
        } else {
          problems.push(`${event.transactionId}: email ${job.status}`);
        }
      }
    }
  }
  return result;
}

function reasonKind(reason: string): string {
  if (reason.includes('503')) return 'provider 503';
  if (reason.includes('did not answer')) return 'provider timeout';
  if (reason.startsWith('Delivery outcome unknown')) return 'outcome unknown';
  return reason.slice(0, 80);
}
