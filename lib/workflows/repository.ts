import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import type { StoredWorkflow } from './model.ts';

// Storage of workflows: one item per workflow, keyed by its workflowId (what triggers name),
// found by database id through gsi1 and listed per environment through gsi2. Items carry a
// version; updates are conditioned on the version read.

export interface VersionedWorkflow extends StoredWorkflow {
  version: number;
}

/** Another request changed the workflow first. */

const scopeOf = (w: StoredWorkflow): EnvScope => ({ organizationId: w._organizationId, environmentId: w._environmentId });

function toItem(workflow: StoredWorkflow, version: number) {
  const scope = scopeOf(workflow);
  return {
    ...keys.workflow(scope, workflow.workflowId),
    ...keys.workflowDbIdIndex(scope, workflow._id),
    ...keys.workflowListIndex(scope, workflow.createdAt, workflow._id),
    type: 'Workflow',
    ...workflow,
    version,
  };
}

export function workflowFromItem(item: Record<string, unknown>): VersionedWorkflow {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, type: _t, ...workflow } = item;
  return workflow as unknown as VersionedWorkflow;
}

export async function getWorkflow(scope: EnvScope, workflowId: string): Promise<VersionedWorkflow | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workflow(scope, workflowId) }));
  return Item ? workflowFromItem(Item) : undefined;
}

export async function getWorkflowByDbId(scope: EnvScope, workflowDbId: string): Promise<VersionedWorkflow | undefined> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.workflowByDbId(scope, workflowDbId).gsi1pk },
    }),
  );
  return Items[0] ? workflowFromItem(Items[0]) : undefined;
}

/** By database id or workflowId, as the v2 API accepts either in the path. */
export async function findWorkflow(scope: EnvScope, idOrWorkflowId: string): Promise<VersionedWorkflow | undefined> {
  return (await getWorkflow(scope, idOrWorkflowId)) ?? (await getWorkflowByDbId(scope, idOrWorkflowId));
}

/** Every workflow of the environment, oldest first. */
export async function listWorkflows(scope: EnvScope): Promise<VersionedWorkflow[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.workflowsOfEnvironment(scope).gsi2pk },
  });
  return items.map(workflowFromItem);
}

/**
 * Stores a workflow whole. `expectedVersion` undefined: it must be new (its workflowId unused in
 * the environment, else 409); otherwise it must still be at that version.
 */
export async function saveWorkflow(workflow: StoredWorkflow, expectedVersion?: number): Promise<VersionedWorkflow> {
  const version = (expectedVersion ?? 0) + 1;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: toItem(workflow, version),
              ...(expectedVersion === undefined
                ? { ConditionExpression: 'attribute_not_exists(pk)' }
                : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      if (expectedVersion === undefined) throw new ConflictError(`Workflow with id ${workflow.workflowId} already exists`);
      throw new StaleWriteError('Workflow changed concurrently');
    }
    throw error;
  }
  return { ...workflow, version };
}

/**
 * Stores a workflow under a new workflowId (a v1 update of its trigger identifier): in one
 * transaction the item of `previousWorkflowId` goes, if still at `expectedVersion`, and the new
 * one comes, if its workflowId is free in the environment (else 409). Its database id stays, and
 * everything else refers to a workflow by that.
 */
export async function saveRenamedWorkflow(workflow: StoredWorkflow, previousWorkflowId: string, expectedVersion: number): Promise<VersionedWorkflow> {
  const version = expectedVersion + 1;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.workflow(scopeOf(workflow), previousWorkflowId),
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': expectedVersion },
            },
          },
          { Put: { TableName: tableName(), Item: toItem(workflow, version), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const [previous, next] = error.CancellationReasons ?? [];
      if (previous?.Code !== 'ConditionalCheckFailed' && next?.Code === 'ConditionalCheckFailed') {
        throw new ConflictError(`Workflow with identifier ${workflow.workflowId} already exists`);
      }
      throw new StaleWriteError('Workflow changed concurrently');
    }
    throw error;
  }
  return { ...workflow, version };
}

export async function deleteWorkflow(scope: EnvScope, workflowId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.workflow(scope, workflowId) }));
}

/**
 * Records that the workflow was triggered, at most once per `everyMs` (the condition skips the
 * write otherwise). It leaves the version alone: a trigger is not an edit of the workflow.
 */
export async function touchLastTriggered(scope: EnvScope, workflowId: string, at: Date, everyMs: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.workflow(scope, workflowId),
        UpdateExpression: 'SET lastTriggeredAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastTriggeredAt) OR lastTriggeredAt = :null OR lastTriggeredAt < :before)',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':null': null, ':before': new Date(at.getTime() - everyMs).toISOString() },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
