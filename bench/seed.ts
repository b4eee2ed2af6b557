import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { DAY_MS } from '#lib/time.ts';
import { newId } from '#lib/ids.ts';
import type { StoredNotification } from '#lib/pipeline/model.ts';
import { notificationItem } from '#lib/pipeline/notification-store.ts';
import { db } from '#lib/store/client.ts';
import { mapConcurrently } from '#lib/concurrency.ts';
import { keys } from '#lib/store/keys.ts';
import type { EnvScope } from '#lib/scope.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import { provisionOrganization } from '#lib/accounts/provision.ts';
import { createTopic } from '#lib/topics/repository.ts';
import { subscriptionItem } from '#lib/topics/subscription-repository.ts';

// Data sets for the benchmark, written straight into the table in the shapes the repositories
// write (BatchWriteItem, 25 items a request, several requests at once), so seeding 50,000
// notifications takes seconds instead of the pipeline's minutes.

export interface BenchEnv {
  id: string;
  scope: EnvScope;
  apiKey: string;
  applicationIdentifier: string;
}

/**
 * A new organization with its two environments. `madeDaysAgo` backdates them: a feed seeded with
 * days of notifications needs an environment at least that old, since nothing of an environment
 * is listed from before it was made (lib/activity/window.ts).
 */
export async function benchOrganization(options: { madeDaysAgo?: number } = {}): Promise<{ dev: BenchEnv; prod: BenchEnv }> {
  const org = await provisionOrganization(
    'Benchmark',
    options.madeDaysAgo === undefined ? {} : { createdAt: new Date(Date.now() - options.madeDaysAgo * DAY_MS) },
  );
  const env = (name: string): BenchEnv => {
    const found = org.environments.find((e) => e.environment.name === name)!;
    return {
      id: found.environment._id,
      scope: { organizationId: org.organization._id, environmentId: found.environment._id },
      apiKey: found.apiKey,
      applicationIdentifier: found.environment.identifier,
    };
  };
  return { dev: env('Development'), prod: env('Production') };
}

/** BatchWriteItem of `items`, 25 a request, `concurrency` requests at once; unprocessed items retried. */
export async function batchWriteAll(items: readonly Record<string, unknown>[], concurrency = 8): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25) as Record<string, unknown>[]);
  await mapConcurrently(chunks, concurrency, async (chunk) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  });
}

export async function seedSubscribers(scope: EnvScope, subscriberIds: readonly string[]): Promise<Subscriber[]> {
  const now = new Date().toISOString();
  const subscribers: Subscriber[] = subscriberIds.map((subscriberId, i) => ({
    _id: newId(),
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    subscriberId,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    email: `${subscriberId}@example.com`,
    avatar: null,
    deleted: false,
    createdAt: now,
    updatedAt: now,
  }));
  await batchWriteAll(
    subscribers.map((s) => ({
      ...keys.subscriber(scope, s.subscriberId),
      ...keys.subscriberListIndex(scope, s.createdAt, s._id),
      ...keys.subscriberEmailIndex(scope, s.email!, s.subscriberId),
      type: 'Subscriber',
      ...s,
      nameLower: `${s.firstName} ${s.lastName}`.toLowerCase(), // as lib/subscribers/repository.ts stores it
      version: 1,
    })),
  );
  return subscribers;
}

/** `count` topics, each with `subscriber` as its member (and the subscriber's counter). */
export async function seedSubscriptions(scope: EnvScope, subscriber: Subscriber, count: number): Promise<void> {
  const now = new Date().toISOString();
  const topics = Array.from({ length: count }, (_, i) => ({
    _id: newId(),
    key: `topic-${String(i).padStart(5, '0')}`,
    name: `Topic ${i}`,
    createdAt: now,
    updatedAt: now,
  }));
  await mapConcurrently(topics, 16, (topic) => createTopic(scope, topic));
  await batchWriteAll([
    ...topics.map((topic) =>
      subscriptionItem(scope, {
        _id: newId(),
        topicKey: topic.key,
        _topicId: topic._id,
        subscriberId: subscriber.subscriberId,
        _subscriberId: subscriber._id,
        createdAt: now,
        updatedAt: now,
      }),
    ),
    { ...keys.subscriptionCount(scope, subscriber.subscriberId), type: 'TopicSubscriptionCount', count },
  ]);
}

/**
 * `count` delivered one-step in-app notifications spread evenly over the last `days` days (the
 * activity feed's day partitions), among `subscribers`, as the pipeline stores them.
 */
export async function seedNotifications(
  scope: EnvScope,
  options: {
    count: number;
    days: number;
    subscribers: readonly Subscriber[];
    workflow: { _id: string; workflowId: string; stepDbId: string; stepId: string };
  },
): Promise<void> {
  const now = Date.now();
  const span = options.days * 86_400_000;
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < options.count; i++) {
    // Newest last, at least a minute old (so `before` = now includes all).
    const at = new Date(now - 60_000 - Math.floor(((options.count - i) / options.count) * span));
    const subscriber = options.subscribers[i % options.subscribers.length]!;
    items.push(notificationItem(deliveredNotification(scope, at, subscriber, options.workflow), 3));
  }
  await batchWriteAll(items, 8);
}

function deliveredNotification(
  scope: EnvScope,
  at: Date,
  subscriber: Subscriber,
  workflow: { _id: string; workflowId: string; stepDbId: string; stepId: string },
): StoredNotification {
  const iso = at.toISOString();
  const later = new Date(at.getTime() + 40).toISOString();
  const ms = at.getTime();
  const messageId = newId(ms);
  const detail = (text: string, status: 'Pending' | 'Success', createdAt: string, extra = {}) => ({
    _id: newId(ms),
    createdAt,
    detail: text,
    status,
    source: 'Internal' as const,
    isRetry: false,
    isTest: false,
    raw: null,
    ...extra,
  });
  return {
    _id: newId(ms),
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    _templateId: workflow._id,
    templateIdentifier: workflow.workflowId,
    transactionId: `txn-${newId(ms)}`,
    _subscriberId: subscriber._id,
    subscriberId: subscriber.subscriberId,
    subscriber: {
      _id: subscriber._id,
      subscriberId: subscriber.subscriberId,
      firstName: subscriber.firstName ?? null,
      email: subscriber.email ?? null,
    },
    topics: [],
    channels: ['in_app'],
    payload: { comment: 'Looks good to me, ship it', author: 'Bob', postId: `post-${ms % 997}` },
    overrides: {},
    to: subscriber.subscriberId,
    tags: [],
    controls: {},
    severity: 'none',
    critical: false,
    contextKeys: [],
    jobs: [
      {
        _id: newId(ms),
        index: 0,
        stepDbId: workflow.stepDbId,
        stepId: workflow.stepId,
        type: 'in_app',
        status: 'completed',
        providerId: 'svc',
        messageId,
        executionDetails: [
          detail('Step queued', 'Pending', iso),
          detail('Inbox provider was selected', 'Pending', later, { providerId: 'svc' }),
          detail('Message created', 'Pending', later, { providerId: 'svc', messageId }),
          detail('Message sent', 'Success', later, { providerId: 'svc', messageId }),
        ],
        createdAt: iso,
        updatedAt: later,
      },
    ],
    createdAt: iso,
    updatedAt: later,
  };
}

/** A topic named `key` whose members are `subscribers` (each with its counter), written straight into the table. */
export async function seedTopic(scope: EnvScope, key: string, subscribers: readonly Subscriber[]): Promise<void> {
  const now = new Date().toISOString();
  const topic = { _id: newId(), key, name: key, createdAt: now, updatedAt: now };
  await createTopic(scope, topic);
  await batchWriteAll([
    ...subscribers.map((subscriber) =>
      subscriptionItem(scope, {
        _id: newId(),
        topicKey: key,
        _topicId: topic._id,
        subscriberId: subscriber.subscriberId,
        _subscriberId: subscriber._id,
        createdAt: now,
        updatedAt: now,
      }),
    ),
    ...subscribers.map((subscriber) => ({
      ...keys.subscriptionCount(scope, subscriber.subscriberId),
      type: 'TopicSubscriptionCount',
      count: 1,
    })),
  ]);
}
