import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
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
