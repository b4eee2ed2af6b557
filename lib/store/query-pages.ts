import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';

// Every "read the whole match" in the code: one Query per page, each continuing from the last
// one's LastEvaluatedKey, so callers see items page by page and never hold more than a page.

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

export async function* queryPages(input: QueryInput): AsyncGenerator<Record<string, unknown>[], void, undefined> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey }));
    if (page.Items?.length) yield page.Items;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** All matching items; for matches known to be small (an environment's workflows, a channel). */
export async function queryAll(input: QueryInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input)) items.push(...page);
  return items;
}

/** One page from `startKey`, with the key to continue from (undefined at the end): for work that stops and resumes later. */
export async function queryPage(
  input: QueryInput,
  startKey?: Record<string, unknown>,
): Promise<{ items: Record<string, unknown>[]; next?: Record<string, unknown> }> {
  const page = await db().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: startKey }));
  return { items: page.Items ?? [], ...(page.LastEvaluatedKey && { next: page.LastEvaluatedKey }) };
}
