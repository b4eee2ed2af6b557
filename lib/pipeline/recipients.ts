import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryPage } from '../store/query-pages.ts';
import type { SubscriberDefinition } from '../subscribers/model.ts';
import type { Recipient, TopicRecipient } from './model.ts';

// Who a trigger goes to. Single recipients are known from the event; topic members and, for a
// broadcast, every subscriber of the environment are read a page at a time, and the position is
// a cursor that the walk can hand to its next message.

export const isTopic = (r: Recipient): r is TopicRecipient => typeof r === 'object' && (r as TopicRecipient).type === 'Topic';

/** Single recipients as definitions, the last definition of a subscriberId winning. */
export function singleRecipients(to: readonly Recipient[]): SubscriberDefinition[] {
  const byId = new Map<string, SubscriberDefinition>();
  for (const r of to) {
    if (isTopic(r)) continue;
    const definition = typeof r === 'string' ? { subscriberId: r } : r;
    byId.delete(definition.subscriberId);
    byId.set(definition.subscriberId, definition);
  }
  return [...byId.values()];
}

export interface Position {
  /** Index into the event's topics; -1 for the environment's subscribers (broadcast). */
  source: number;
  startKey?: Record<string, unknown>;
}

export const encodePosition = (p: Position): string => Buffer.from(JSON.stringify(p)).toString('base64url');
export const decodePosition = (cursor: string): Position => JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Position;

/**
 * Ids read per page of the walk: keys only (~60 bytes each), so a page is a few read units and the
 * walk of 1,000,000 members is 1,000 Queries, far ahead of the deliveries it hands out.
 */
const WALK_PAGE_SIZE = 1_000;
/**
 * Members per segment message: enough that a segment's fixed reads (event, topic, actor) are
 * shared by many deliveries, few enough that one consumer delivers it well within its timeout
 * and a redelivered segment repeats little.
 */
export const SEGMENT_SIZE = 100;

/** One page of subscriberIds from `position`: topic members, or the environment's subscribers. */
export async function recipientPage(
  scope: EnvScope,
  topicKey: string | undefined,
  startKey?: Record<string, unknown>,
): Promise<{ subscriberIds: string[]; next?: Record<string, unknown> }> {
  if (topicKey !== undefined) {
    const { pk, skPrefix } = keys.subscribersOfTopic(scope, topicKey);
    const page = await queryPage(
      {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ProjectionExpression: 'subscriberId',
        Limit: WALK_PAGE_SIZE,
      },
      startKey,
    );
    return { subscriberIds: page.items.map((i) => i.subscriberId as string), ...(page.next && { next: page.next }) };
  }
  const page = await queryPage(
    {
      IndexName: INDEXES.subscriber.list.name,
      KeyConditionExpression: onIndex(INDEXES.subscriber.list),
      ExpressionAttributeValues: { ':pk': keys.subscribersOfEnvironment(scope).gsi1pk },
      ProjectionExpression: 'subscriberId, deleted',
      Limit: WALK_PAGE_SIZE,
    },
    startKey,
  );
  return {
    subscriberIds: page.items.filter((i) => !i.deleted).map((i) => i.subscriberId as string),
    ...(page.next && { next: page.next }),
  };
}
