import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { keys, type Key } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';

// A digest window: the item events of one subscriber, step and digest value join while its
// master job waits. Opened and joined by the digest step; closed by the master when its time
// comes, or by a cancel.

/** The digest value of events without a digest key, or whose key is not in the payload (the reference's). */
export const NO_DIGEST_VALUE = 'No-Value-Provided';

/** The window's item key for a digest value (undefined: events without a value). */
export const digestWindowKey = (scope: EnvScope, workflowDbId: string, stepId: string, subscriberId: string, digestValue: string | undefined): Key =>
  keys.digestWindow(scope, workflowDbId, stepId, subscriberId, digestValue ?? NO_DIGEST_VALUE);

/** Closes the window if it is still the master's (`windowId`); a window closed already, or opened again by another master, is left. */
export function closeDigestWindow(key: Key, masterJobId: string): Promise<boolean> {
  return writeIf(() => db().send(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'windowId = :w', ExpressionAttributeValues: { ':w': masterJobId } })));
}
