import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { ENGAGEMENT_SOURCE_SORT_KEYS, MESSAGE_ITEM_TYPE } from './keys.ts';
import { TTL_DELETION_IDENTITY } from './retention.ts';

// One reading of a table stream record, for every consumer of the stream (webhook events,
// engagement): its key, the item before and after, and whether DynamoDB's TTL deleted it.

export interface StreamChange {
  /** The record's own id (its event id, else its sequence number). */
  changeId: string;
  pk: string;
  sk: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Deleted by DynamoDB's TTL (its service principal), not by the service. */
  expired: boolean;
  /** When the stream saw the change (ms; DynamoDB's approximate time, else now). */
  at: number;
}

/**
 * What a reading of a change from its images alone needs (the webhook events it makes, the
 * engagement it counts): pure functions, tested over images without a stream record.
 */
export type StoredChange = Pick<StreamChange, 'sk' | 'before' | 'after' | 'expired'>;

/**
 * A change of a message item: under a message's sort key, and stored as one (its `type`, in the
 * image after, or before for a removal). Anything else there (the service writes none) is no
 * message to its consumers: read as one, a test's raw item without dates failed its whole batch.
 */
export const isMessageChange = (change: StoredChange): boolean =>
  change.sk.startsWith(ENGAGEMENT_SOURCE_SORT_KEYS.messagePrefix) && (change.after ?? change.before)?.type === MESSAGE_ITEM_TYPE;

type Image = Record<string, AttributeValue> | undefined;
const item = (image: Image) => (image ? (unmarshall(image as Parameters<typeof unmarshall>[0]) as Record<string, unknown>) : undefined);

export function streamChange(record: DynamoDBRecord): StreamChange {
  const { dynamodb } = record;
  const before = item(dynamodb?.OldImage);
  const after = item(dynamodb?.NewImage);
  return {
    changeId: record.eventID ?? dynamodb?.SequenceNumber ?? '',
    pk: dynamodb?.Keys?.pk?.S ?? '',
    sk: dynamodb?.Keys?.sk?.S ?? '',
    ...(before && { before }),
    ...(after && { after }),
    expired:
      record.userIdentity?.type === TTL_DELETION_IDENTITY.type && record.userIdentity?.principalId === TTL_DELETION_IDENTITY.principalId,
    at: (dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000,
  };
}
