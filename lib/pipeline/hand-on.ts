import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { sendMessages } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { conditionalWrite } from '../store/conditions.ts';
import { db } from '../store/client.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import { ttlAfter } from '../store/retention.ts';
import { HANDED_ON, type EventMessage } from './queue-messages.ts';

// A fan-out message that runs out of time hands the rest of its work on in a new message. SQS
// delivers at least once, so two copies of one message may each run, and each would hand on its
// own rest (they stop at different members); every copy of those again, so along a long fan-out
// the copies would multiply. So a message hands on once, whichever copy gets there first: the
// copy claims the message (a conditional write keyed by the digest of its content) under a short
// lease, sends, then marks the claim sent. A later copy finding it sent hands nothing on (the
// first copy's rest covers what that copy did not deliver); one finding it under lease waits for
// the send or the lease's end; a lapsed lease (its sender died before marking) is taken over, so
// nothing is lost, at worst a rest sent twice.
// A trigger's first walk hands on two rests of different work: its first segment's members left
// (that segment is delivered in the walk) and its next pages. Each has a claim of its own: under
// one claim, the later of the two found it sent and was dropped, with the rest of the audience.

/** Longer than a send takes, shorter than any queue's visibility timeout (a crashed sender's copy comes back after it). */
const LEASE_MS = 3_000;
const LOOK_AGAIN_MS = 200;
const KEPT_DAYS = 1;

type Claim = { sentAt?: string; leaseUntil?: number } | undefined;

/** Sends `rest`, the work `received` leaves, unless a copy of `received` has handed it on. */
export async function handOn(scope: EnvScope, received: EventMessage, rest: EventMessage): Promise<void> {
  const key = claimKey(scope, received, rest);
  // Its next receive would find this very claim sent and drop it: a fan-out step must progress.
  if (JSON.stringify(rest) === JSON.stringify(received)) throw new Error('A fan-out message handed on unchanged');
  for (;;) {
    const now = Date.now();
    const claimed = await conditionalWrite(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, leaseUntil: now + LEASE_MS, ...ttlAfter(new Date(now), KEPT_DAYS) },
          ConditionExpression: 'attribute_not_exists(pk) OR (attribute_not_exists(sentAt) AND leaseUntil < :now)',
          ExpressionAttributeValues: { ':now': now },
        }),
      ),
    );
    if (claimed.written) break;
    const claim = (await getItem(key, { consistent: true })) as Claim;
    if (claim?.sentAt) return;
    // Under another copy's lease: its send is under way (or its sender died, and the lease ends).
    await sleep(LOOK_AGAIN_MS);
  }
  await sendMessages(HANDED_ON, [{ body: rest }]);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET sentAt = :at',
      ExpressionAttributeValues: { ':at': new Date().toISOString() },
    }),
  );
}

/** The same for every copy of one message and kind of rest (members of a segment, or pages of the walk): the digest of both. */
export function claimKey(scope: EnvScope, received: EventMessage, rest: EventMessage) {
  const part = rest.segment ? 'segment' : 'walk';
  const digest = createHash('sha256')
    .update(`${part}:${JSON.stringify(received)}`)
    .digest('base64url')
    .slice(0, 22);
  return keys.handOn(scope, received.transactionId, digest);
}
