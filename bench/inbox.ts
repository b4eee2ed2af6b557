import { newId } from '#lib/ids.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { messageItem } from '#lib/messages/repository.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import type { Severity } from '#lib/workflows/model.ts';
import type { Bench } from './harness.ts';
import { compareDepth, expectStatus, type DepthResult } from './scenarios.ts';
import { batchWriteAll, type BenchEnv } from './seed.ts';

// The subscriber inbox at two sizes (issue 20, item 7): what `<Inbox />` asks when it opens —
// the bell's counts (unread, per severity) and the first page of its default tab and of its
// Unread tab — for an inbox of 10 messages and one of 10,000 with the same 10 unread, compared as
// the other depth scenarios are. The counts read the unread index only, so their cost follows
// the unread messages, not the inbox's size; a third inbox of 10,000 with 1,000 unread shows what
// they cost at their cap (100 per severity), which no larger inbox exceeds.

const SEVERITIES: Severity[] = ['high', 'medium', 'low', 'none'];
/** The bell: one count per severity of the unread, unarchived, unsnoozed messages. */
const BELL = JSON.stringify(SEVERITIES.map((severity) => ({ read: false, archived: false, snoozed: false, severity })));

/**
 * `count` delivered in-app messages of `subscriber`, newest last, as the pipeline stores them:
 * the newest `unread` unread (over the severities in turn), the rest read, one in seven of those archived.
 */
export async function seedInbox(env: BenchEnv, subscriber: Subscriber, count: number, unread: number): Promise<void> {
  const now = Date.now();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const at = now - 60_000 - (count - i) * 1_000;
    const iso = new Date(at).toISOString();
    const read = i < count - unread;
    const message: StoredMessage = {
      _id: newId(at),
      _organizationId: env.scope.organizationId,
      _environmentId: env.scope.environmentId,
      _notificationId: newId(at),
      _subscriberId: subscriber._id,
      subscriberId: subscriber.subscriberId,
      _templateId: newId(at),
      templateIdentifier: 'inbox-bench',
      workflowName: 'Inbox bench',
      _messageTemplateId: newId(at),
      stepId: 'inbox',
      _jobId: newId(at),
      transactionId: `txn-inbox-${i}`,
      channel: 'in_app',
      providerId: 'svc',
      content: `Message ${i}`,
      subject: 'Hello',
      cta: {},
      payload: { n: i },
      overrides: {},
      tags: i % 3 === 0 ? ['billing'] : [],
      severity: SEVERITIES[i % SEVERITIES.length]!,
      critical: false,
      contextKeys: [],
      status: 'sent',
      read,
      seen: read,
      archived: read && i % 7 === 0,
      deliveredAt: [iso],
      _feedId: null,
      createdAt: iso,
      updatedAt: iso,
      ...(read && { lastReadDate: iso, lastSeenDate: iso, firstSeenDate: iso }),
    };
    items.push(messageItem(message));
  }
  await batchWriteAll(items, 8);
}

/**
 * The bell's counts and the first pages of the default and Unread tabs, small inbox against
 * large (the same unread messages); then the counts at their cap (`capped`: 1,000 unread).
 */
export async function inboxDepth(
  bench: Bench,
  env: BenchEnv,
  inboxes: { small: Subscriber; large: Subscriber; capped: Subscriber },
  samples: number,
): Promise<{ compared: DepthResult[]; atCap: DepthResult }> {
  const { small, large, capped } = inboxes;
  const sessionOf = async (subscriber: Subscriber) => {
    const open = bench.api({ bearer: '' });
    const res = await expectStatus(
      open('POST', '/v1/inbox/session', { applicationIdentifier: env.applicationIdentifier, subscriber: subscriber.subscriberId }),
      201,
      'inbox session',
    );
    return bench.api({ bearer: (res.body as { data: { token: string } }).data.token });
  };
  const [smallCall, largeCall, cappedCall] = [await sessionOf(small), await sessionOf(large), await sessionOf(capped)];
  const list = '/v1/inbox/notifications?limit=10&archived=false&snoozed=false';
  const counts = `/v1/inbox/notifications/count?filters=${encodeURIComponent(BELL)}`;
  const compared = [
    await compareDepth(
      bench,
      'inbox list, default tab (limit 10)',
      { label: '10 messages', call: () => smallCall('GET', list) },
      { label: '10,000 messages (10 unread)', call: () => largeCall('GET', list) },
      samples,
    ),
    await compareDepth(
      bench,
      'inbox bell counts (4 severities)',
      { label: '10 messages', call: () => smallCall('GET', counts) },
      { label: '10,000 messages (10 unread)', call: () => largeCall('GET', counts) },
      samples,
    ),
    await compareDepth(
      bench,
      'inbox Unread tab (limit 10)',
      { label: '10 messages', call: () => smallCall('GET', '/v1/inbox/notifications?limit=10&read=false&snoozed=false') },
      { label: '10,000 messages (10 unread)', call: () => largeCall('GET', '/v1/inbox/notifications?limit=10&read=false&snoozed=false') },
      samples,
    ),
  ];
  const atCap = await compareDepth(
    bench,
    'inbox bell counts (4 severities)',
    { label: '10 unread of 10', call: () => smallCall('GET', counts) },
    { label: '1,000 unread of 10,000', call: () => cappedCall('GET', counts) },
    samples,
  );
  return { compared, atCap };
}
