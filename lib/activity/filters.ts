import { contextKeyOf } from '../context-keys.ts';
import { ExpressionBuilder, type Filter } from '../store/expression.ts';
import type { ListNotificationsQuery } from './schemas.ts';
import type { TimeWindow } from './window.ts';

// The activity filters as one DynamoDB FilterExpression over the notification item's flat
// attributes (notification-store.ts writes `topicKeys` and `contextKey` for this). Whichever key
// a query reads (a day, a subscriber, a transaction), the same expression narrows it, so every
// access path applies the same rules.

export interface FilterOptions {
  /** Set when the key read does not already restrict the subscribers. */
  subscriberIds?: readonly string[];
}

export type { Filter };

export function activityFilter(query: ListNotificationsQuery, window: TimeWindow, options: FilterOptions = {}): Filter {
  const e = new ExpressionBuilder();
  // Key conditions bound the window to the second (ids); this makes it exact to the millisecond.
  e.and(`${e.name('createdAt')} BETWEEN ${e.value(window.from.toISOString())} AND ${e.value(window.to.toISOString())}`);

  if (options.subscriberIds) e.and(e.in('subscriberId', options.subscriberIds));
  if (query.channels?.length) {
    // Any overlap with the notification's channels.
    const channels = e.name('channels');
    e.and(`(${query.channels.map((c) => `contains(${channels}, ${e.value(c)})`).join(' OR ')})`);
  }
  if (query.templates?.length) e.and(e.in('_templateId', query.templates));
  if (query.severity?.length) {
    const term = e.in('severity', query.severity);
    // 'none' also matches notifications stored without a severity.
    e.and(query.severity.includes('none') ? `(${term} OR attribute_not_exists(${e.name('severity')}))` : term);
  }
  if (query.topicKey !== undefined) e.and(`contains(${e.name('topicKeys')}, ${e.value(query.topicKey)})`);
  if (query.contextKeys !== undefined) {
    const contextKey = e.name('contextKey');
    const wanted = contextKeyOf(query.contextKeys);
    e.and(wanted === '' ? `(attribute_not_exists(${contextKey}) OR ${contextKey} = ${e.value('')})` : `${contextKey} = ${e.value(wanted)}`);
  }
  return e.build();
}
