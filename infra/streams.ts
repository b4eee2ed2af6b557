import { ENGAGEMENT_SOURCE_SORT_KEYS, WEBHOOK_SOURCE_SORT_KEYS } from '#lib/store/keys.ts';

// The consumers of the table's stream (new and old images). The CDK stack wires each with a
// DynamoDB event source whose filter lets through only the items it derives work from; the local
// runtime polls the stream (DynamoDB Local serves the Streams API) and applies the same filter.

export interface SortKeyFilter {
  /** The item's sort key equals this… */
  equals?: string;
  /** …or begins with this. */
  prefix?: string;
}

export interface StreamConsumerDef {
  name: string;
  /** Module (from the repository root) whose `handler` export takes the stream's records. */
  consumer: string;
  /** Queues it sends to (it gets their URLs and sqs:SendMessage). */
  sends: readonly string[];
  batchSize: number;
  /** What it may do with the table (default: read). */
  access?: 'read' | 'write';
  /** Records of items matching any of these reach the consumer; others never wake it. */
  filters: readonly SortKeyFilter[];
}

// DynamoDB Streams serves at most two readers per shard without throttling: two are here.
export const streamConsumers: readonly StreamConsumerDef[] = [
  // Webhook events from stored changes of messages, workflows and preferences (lib/webhooks/emit.ts).
  {
    name: 'webhook-events',
    consumer: 'functions/consumers/webhook-events.ts',
    sends: ['webhooks'],
    batchSize: 100,
    filters: [
      { prefix: WEBHOOK_SOURCE_SORT_KEYS.messagePrefix },
      { equals: WEBHOOK_SOURCE_SORT_KEYS.workflow },
      { prefix: WEBHOOK_SOURCE_SORT_KEYS.preferencePrefix },
    ],
  },
  // Engagement counters and the wakes of delays waiting for engagement (lib/engagement/consume.ts).
  {
    name: 'engagement',
    consumer: 'functions/consumers/engagement.ts',
    sends: ['jobs'],
    batchSize: 100,
    access: 'write',
    filters: [{ prefix: ENGAGEMENT_SOURCE_SORT_KEYS.messagePrefix }, { equals: ENGAGEMENT_SOURCE_SORT_KEYS.trigger }],
  },
];

/** Retries of a failing stream record before it is given up (to the consumer's dead-letter queue in AWS). */
export const STREAM_RETRY_ATTEMPTS = 10;

/** Whether a record of the item with this sort key passes the consumer's filter. */
export const passesFilter = (def: StreamConsumerDef, sk: string): boolean =>
  def.filters.some((f) => (f.equals !== undefined && sk === f.equals) || (f.prefix !== undefined && sk.startsWith(f.prefix)));
