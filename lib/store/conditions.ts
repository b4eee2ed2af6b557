import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';

// Conditional writes: the condition of optimistic concurrency on a versioned item (still at the
// version read, or not there yet when new), and a write whose failed condition is an answer the
// caller decides on rather than an error.

/** The item is still at `version`, as read; `values`: the write's own placeholders, joined to the condition's. */
export const atVersion = (version: number, values: Record<string, unknown> = {}) => ({
  ConditionExpression: 'version = :v',
  ExpressionAttributeValues: { ...values, ':v': version },
});

/** `version` undefined: the item must not exist yet (a create); otherwise it must still be at `version`. */
export const newOrAtVersion = (version: number | undefined) =>
  version === undefined ? { ConditionExpression: 'attribute_not_exists(pk)' } : atVersion(version);

/**
 * What a conditional write came to: its output when written; when its condition did not hold,
 * the item that failed it if the write asked for it (ReturnValuesOnConditionCheckFailure:
 * 'ALL_OLD'), in DynamoDB's own form (the document client does not convert it there).
 */
export type ConditionalOutcome<T> = { written: true; output: T } | { written: false; item?: Record<string, AttributeValue> };

/** Runs a conditional write; a failed condition is an outcome, any other error is thrown. */
export async function conditionalWrite<T>(write: () => Promise<T>): Promise<ConditionalOutcome<T>> {
  try {
    return { written: true, output: await write() };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { written: false, item: error.Item };
    throw error;
  }
}

/** Runs a conditional write: true when written, false when its condition did not hold. */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  return (await conditionalWrite(write)).written;
}
