import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

// Conditional writes: the condition of optimistic concurrency on a versioned item (still at the
// version read, or not there yet when new), and a write whose failed condition is an answer the
// caller decides on rather than an error.

/** The item is still at `version`, as read. */
export const atVersion = (version: number) => ({ ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': version } });

/** `version` undefined: the item must not exist yet (a create); otherwise it must still be at `version`. */
export const newOrAtVersion = (version: number | undefined) =>
  version === undefined ? { ConditionExpression: 'attribute_not_exists(pk)' } : atVersion(version);

/** Runs a conditional write: true when written, false when its condition did not hold. */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
