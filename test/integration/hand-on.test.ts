import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { claimKey, handOn } from '#lib/pipeline/hand-on.ts';
import { eventMessage, segmentMessage, type EventMessage } from '#lib/pipeline/queue-messages.ts';
import { sqs } from '#lib/queue/client.ts';
import type { EnvScope } from '#lib/scope.ts';
import { db } from '#lib/store/client.ts';
import { startOwnStack, type OwnStack } from '../support/own-stack.ts';

// A fan-out message that runs out of time hands its rest on once, however many copies of it run
// (lib/pipeline/hand-on.ts): the copies of a message that SQS delivered twice must not each start
// a chain of their own. The stack runs with no consumer, so what reaches the queue stays there.

let own: OwnStack;
const scope: EnvScope = { organizationId: `org-${newId()}`, environmentId: `env-${newId()}` };

beforeAll(async () => {
  own = await startOwnStack('hand-on', { consumers: false });
}, 120_000);
afterAll(() => own?.stop());

/** Every message on the queue that hands work on, taken off it. */
async function handedOn(): Promise<EventMessage[]> {
  const found: EventMessage[] = [];
  for (;;) {
    const { Messages = [] } = await sqs().send(
      new ReceiveMessageCommand({
        QueueUrl: own.stack.queueUrls.bulk,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 600,
      }),
    );
    if (Messages.length === 0) return found;
    found.push(...Messages.map((m) => JSON.parse(m.Body!) as EventMessage));
  }
}

const segment = (transactionId: string, subscriberIds: string[]) => segmentMessage(scope, transactionId, { source: 0, subscriberIds });

describe('handing a fan-out message’s rest on', () => {
  it('sends one rest for two copies of a message running at once, and none for a later copy', async () => {
    const transactionId = newId();
    const received = segment(transactionId, ['a', 'b', 'c', 'd']);
    // The copies stopped at different members: each has a rest of its own.
    await Promise.all([
      handOn(scope, received, segment(transactionId, ['c', 'd'])),
      handOn(scope, received, segment(transactionId, ['d'])),
    ]);
    await handOn(scope, received, segment(transactionId, ['b', 'c', 'd']));
    const sent = await handedOn();
    expect(sent).toHaveLength(1);
    expect([['c', 'd'], ['d']]).toContainEqual(sent[0]!.segment!.subscriberIds);
  });

  it('hands on the rest of another message of the same transaction', async () => {
    const transactionId = newId();
    await handOn(scope, segment(transactionId, ['a', 'b']), segment(transactionId, ['b']));
    await handOn(scope, segment(transactionId, ['x', 'y']), segment(transactionId, ['y']));
    expect((await handedOn()).map((m) => m.segment!.subscriberIds)).toEqual(expect.arrayContaining([['b'], ['y']]));
  });

  it('takes over a claim whose copy died before it sent, once the lease is over', async () => {
    const transactionId = newId();
    const received = segment(transactionId, ['a', 'b']);
    await handOn(scope, received, segment(transactionId, ['b']));
    expect(await handedOn()).toHaveLength(1);
    // Another message whose copy claimed and died: a lapsed lease, never marked sent.
    const other = segment(transactionId, ['p', 'q']);
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...claimKey(scope, other, segment(transactionId, ['q'])), leaseUntil: Date.now() - 1 },
      }),
    );
    await handOn(scope, other, segment(transactionId, ['q']));
    expect((await handedOn()).map((m) => m.segment!.subscriberIds)).toEqual([['q']]);
  });

  it('hands on both rests of a first walk: its first segment’s members left and its next pages', async () => {
    // The walk delivers its first segment itself; both can run out of time in one receive.
    const transactionId = newId();
    const walk = eventMessage(scope, transactionId);
    await handOn(scope, walk, segment(transactionId, ['c', 'd']));
    await handOn(scope, walk, eventMessage(scope, transactionId, 'page-2'));
    const sent = await handedOn();
    expect(sent.map((m) => m.segment?.subscriberIds ?? m.cursor)).toEqual(expect.arrayContaining([['c', 'd'], 'page-2']));
    expect(sent).toHaveLength(2);
  });

  it('refuses a rest equal to the message, which its next receive would drop as a copy', async () => {
    const transactionId = newId();
    const received = segment(transactionId, ['a', 'b']);
    await expect(handOn(scope, received, segment(transactionId, ['a', 'b']))).rejects.toThrow(/unchanged/);
    expect(await handedOn()).toEqual([]);
  });
});
