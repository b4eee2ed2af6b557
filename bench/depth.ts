import type { Bench } from './harness.ts';
import { inboxDepth, seedInbox } from './inbox.ts';
import { compareDepth, expectStatus, type DepthResult } from './scenarios.ts';
import { seedSubscribers, type BenchEnv } from './seed.ts';
import { log, SIZES, SMALL_ENVIRONMENT } from './settings.ts';
import { table } from './table.ts';

// Section 5, depth: what a page costs deep in a list against its first page — subscriptions by
// cursor, the activity feed by environment size (and by page number, for the record), the inbox
// of 10 messages against one of SIZES.inboxLarge (bench/inbox.ts).

export interface DepthSection {
  subscriptions: DepthResult;
  activity: DepthResult;
  /** For the record, not a target: offset paging costs more with depth by nature. */
  activityDeepPage: DepthResult;
  inbox: DepthResult[];
  inboxAtCap: DepthResult;
}

export async function depthSection(bench: Bench, dev: BenchEnv, prod: BenchEnv): Promise<DepthSection> {
  const devCall = bench.api(dev.apiKey);
  log('depth: subscriptions by cursor, activity feed by environment size');
  let cursor: string | undefined;
  for (let seen = 0; seen < 1_000; seen += 100) {
    const page = await expectStatus(
      devCall('GET', `/v2/subscribers/sub-0/subscriptions?limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`),
      200,
      'subscriptions',
    );
    cursor = (page.body as { next?: string }).next;
  }
  const subscriptions = await compareDepth(
    bench,
    'subscriptions page (limit 10)',
    { label: 'page 1', call: () => devCall('GET', '/v2/subscribers/sub-0/subscriptions?limit=10') },
    {
      label: '1,000 items deep (cursor)',
      call: () => devCall('GET', `/v2/subscribers/sub-0/subscriptions?limit=10&after=${encodeURIComponent(cursor!)}`),
    },
    SIZES.depthSamples,
  );
  const prodCall = bench.api(prod.apiKey);
  const activity = await compareDepth(
    bench,
    'activity feed page 1 (limit 10)',
    { label: `${SMALL_ENVIRONMENT.toLocaleString('en-US')} notifications`, call: () => prodCall('GET', '/v1/notifications?limit=10') },
    { label: `${SIZES.notifications.toLocaleString('en-US')}+ notifications`, call: () => devCall('GET', '/v1/notifications?limit=10') },
    SIZES.depthSamples,
  );
  const activityDeepPage = await compareDepth(
    bench,
    'activity feed by page number (limit 10)',
    { label: 'page 0', call: () => devCall('GET', '/v1/notifications?limit=10&page=0') },
    { label: 'page 100 (1,000 deep)', call: () => devCall('GET', '/v1/notifications?limit=10&page=100') },
    Math.min(10, SIZES.depthSamples),
  );

  log('depth: an inbox of 10 messages and one of 10,000');
  const [inboxSmall, inboxLarge, inboxCapped] = await seedSubscribers(dev.scope, ['inbox-small', 'inbox-large', 'inbox-capped']);
  await seedInbox(dev, inboxSmall!, 10, 10);
  await seedInbox(dev, inboxLarge!, SIZES.inboxLarge, 10);
  await seedInbox(dev, inboxCapped!, SIZES.inboxLarge, Math.min(1_000, SIZES.inboxLarge));
  const inbox = await inboxDepth(bench, dev, { small: inboxSmall!, large: inboxLarge!, capped: inboxCapped! }, SIZES.depthSamples);
  return { subscriptions, activity, activityDeepPage, inbox: inbox.compared, inboxAtCap: inbox.atCap };
}

/** In results.json's order: subscriptions, activity, activity by page number, the inbox's, the inbox at its cap. */
export const depthList = (d: DepthSection): DepthResult[] => [d.subscriptions, d.activity, d.activityDeepPage, ...d.inbox, d.inboxAtCap];

export function printDepth(depth: readonly DepthResult[]): void {
  table(
    '5. Depth',
    ['compared', 'shallow p50 ms', 'deep p50 ms', 'shallow RCU', 'deep RCU', 'ratio'],
    depth.map((d) => [
      `${d.what}: ${d.shallow.label} vs ${d.deep.label}`,
      d.shallow.p50Ms,
      d.deep.p50Ms,
      d.shallow.readUnits,
      d.deep.readUnits,
      d.ratio,
    ]),
  );
}
