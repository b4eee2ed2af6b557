import type { ListNotificationsQuery } from './schemas.ts';
import type { TimeWindow } from './window.ts';

// The activity filters as one DynamoDB FilterExpression over the notification item's flat
// attributes (notification-store.ts writes `topicKeys` and `contextKey` for this). Whichever key
// a query reads (a day, a subscriber, a transaction), the same expression narrows it, so every
// access path applies the same rules. Placeholders are `#f<n>`/`:f<n>`: key conditions use others.

export interface Filter {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** DynamoDB allows at most 100 operands in one IN. */
const MAX_IN = 100;

class Expression {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, unknown> = {};
  private readonly terms: string[] = [];
  private count = 0;

  name(attribute: string): string {
    const placeholder = `#f${Object.keys(this.names).length}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:f${this.count++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** `attribute IN (...)`, in groups DynamoDB accepts, OR-ed. */
  in(attribute: string, values: readonly string[]): string {
    const name = this.name(attribute);
    const groups: string[] = [];
    for (let i = 0; i < values.length; i += MAX_IN) {
      groups.push(`${name} IN (${values.slice(i, i + MAX_IN).map((v) => this.value(v)).join(', ')})`);
    }
    return groups.length === 1 ? groups[0]! : `(${groups.join(' OR ')})`;
  }

  and(term: string): void {
    this.terms.push(term);
  }

  build(): Filter {
    if (this.terms.length === 0) return {};
    return {
      FilterExpression: this.terms.join(' AND '),
      ExpressionAttributeNames: this.names,
      ExpressionAttributeValues: this.values,
    };
  }
}

/** The exact-set form of context keys the item's `contextKey` attribute holds. */
export const contextKeyOf = (contextKeys: readonly string[]): string => [...new Set(contextKeys)].sort().join(',');

export interface FilterOptions {
  /** Set when the key read does not already restrict the subscribers. */
  subscriberIds?: readonly string[];
}

export function activityFilter(query: ListNotificationsQuery, window: TimeWindow, options: FilterOptions = {}): Filter {
  const e = new Expression();
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
