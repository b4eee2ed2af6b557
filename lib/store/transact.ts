import { setTimeout as sleep } from 'node:timers/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';

// One TransactWriteItems whose refusal the caller decides on: the reason of each item, in order
// (`ConditionalCheckFailed`, `TransactionConflict`, `None`, ...), instead of an exception.

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface TransactOptions {
  /**
   * The reasons the caller has an answer for (default: any). A cancellation with none of them
   * (a conflict with a concurrent transaction, throttling) is tried again while `attempts` last,
   * after a short random pause, then thrown.
   */
  answers?: readonly string[];
  /** Runs in all, the first included (default 1). */
  attempts?: number;
}

/** undefined when written; the reasons' codes, item by item, when DynamoDB canceled it (and `options` let it answer). */
export async function transact(items: TransactItem[], options: TransactOptions = {}): Promise<(string | undefined)[] | undefined> {
  const { answers, attempts = 1 } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (!answers || reasons.some((code) => code !== undefined && answers.includes(code))) return reasons;
      if (attempt >= attempts) throw error;
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}

/** The positions of the items whose condition failed. */
export const failedConditions = (reasons: readonly (string | undefined)[]): number[] =>
  reasons.flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : []));
