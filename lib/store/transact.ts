import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';

// One TransactWriteItems whose refusal the caller decides on: the reason of each item, in order
// (`ConditionalCheckFailed`, `TransactionConflict`, `None`, ...), instead of an exception.

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** undefined when written; the reasons' codes, item by item, when DynamoDB canceled it. */
export async function transact(items: TransactItem[]): Promise<(string | undefined)[] | undefined> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return undefined;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    return (error.CancellationReasons ?? []).map((reason) => reason.Code);
  }
}
