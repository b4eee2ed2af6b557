import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { atVersion, newOrAtVersion, writeIf } from '../store/conditions.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { firstOfIndex, recordOf } from '../store/index-item.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { transact } from '../store/transact.ts';
import { layoutUseWrites } from '../layouts/uses.ts';
import type { StoredWorkflow } from './model.ts';

// Storage of workflows: one item per workflow, keyed by its workflowId (what triggers name),
// found by database id through gsi1 and listed per environment through gsi2. Items carry a
// version; updates are conditioned on the version read. Every write carries, in its transaction,
// the items that record which layouts the workflow's email steps use (layouts/uses.ts).

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
    layoutUsesTracked: true,
    version,
  };
}

/** A stored workflow item as the workflow it holds (also what the webhook emitter reads from the stream). */
export const workflowFromItem = (item: Record<string, unknown>) => recordOf<VersionedWorkflow>(item);

export async function getWorkflow(scope: EnvScope, workflowId: string): Promise<VersionedWorkflow | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workflow(scope, workflowId) }));
  return Item ? workflowFromItem(Item) : undefined;
}

export async function getWorkflowByDbId(scope: EnvScope, workflowDbId: string): Promise<VersionedWorkflow | undefined> {
  const item = await firstOfIndex(INDEXES.workflow.byDbId, keys.workflowByDbId(scope, workflowDbId).gsi1pk);
  return item && workflowFromItem(item);
}

/** By database id or workflowId, as the v2 API accepts either in the path. */
export async function findWorkflow(scope: EnvScope, idOrWorkflowId: string): Promise<VersionedWorkflow | undefined> {
  return (await getWorkflow(scope, idOrWorkflowId)) ?? (await getWorkflowByDbId(scope, idOrWorkflowId));
}

/** Every workflow of the environment, oldest first. */
export async function listWorkflows(scope: EnvScope): Promise<VersionedWorkflow[]> {
  const items = await queryAll({
    IndexName: INDEXES.workflow.list.name,
    KeyConditionExpression: onIndex(INDEXES.workflow.list),
    ExpressionAttributeValues: { ':pk': keys.workflowsOfEnvironment(scope).gsi2pk },
  });
  return items.map(workflowFromItem);
}

/**
 * Stores a workflow whole. `previous` undefined: it must be new (its workflowId unused in the
 * environment, else 409); otherwise it replaces `previous`, which must still be stored at its version.
 */
export async function saveWorkflow(workflow: StoredWorkflow, previous?: VersionedWorkflow): Promise<VersionedWorkflow> {
  const version = (previous?.version ?? 0) + 1;
  const refused = await transact([
    {
      Put: {
        TableName: tableName(),
        Item: toItem(workflow, version),
        ...newOrAtVersion(previous?.version),
      },
    },
    ...layoutUseWrites(scopeOf(workflow), previous, workflow),
  ]);
  if (refused && previous === undefined && refused[0] === 'ConditionalCheckFailed')
    throw new ConflictError(`Workflow with id ${workflow.workflowId} already exists`);
  if (refused) throw new StaleWriteError('Workflow changed concurrently');
  return { ...workflow, version };
}

/**
 * Stores a workflow under a new workflowId (a v1 update of its trigger identifier): in one
 * transaction the item of `previous` goes, if still at its version, and the new
 * one comes, if its workflowId is free in the environment (else 409). Its database id stays, and
 * everything else refers to a workflow by that.
 */
export async function saveRenamedWorkflow(workflow: StoredWorkflow, previous: VersionedWorkflow): Promise<VersionedWorkflow> {
  const version = previous.version + 1;
  const refused = await transact([
    {
      Delete: {
        TableName: tableName(),
        Key: keys.workflow(scopeOf(workflow), previous.workflowId),
        ...atVersion(previous.version),
      },
    },
    { Put: { TableName: tableName(), Item: toItem(workflow, version), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...layoutUseWrites(scopeOf(workflow), previous, workflow),
  ]);
  if (refused && refused[0] !== 'ConditionalCheckFailed' && refused[1] === 'ConditionalCheckFailed') {
    throw new ConflictError(`Workflow with identifier ${workflow.workflowId} already exists`);
  }
  if (refused) throw new StaleWriteError('Workflow changed concurrently');
  return { ...workflow, version };
}

/** Deletes the workflow as read (a change meanwhile: StaleWriteError), with its layout use items. */
export async function deleteWorkflow(workflow: VersionedWorkflow): Promise<void> {
  const scope = scopeOf(workflow);
  const refused = await transact([
    {
      Delete: {
        TableName: tableName(),
        Key: keys.workflow(scope, workflow.workflowId),
        ...atVersion(workflow.version),
      },
    },
    ...layoutUseWrites(scope, workflow, undefined),
  ]);
  if (refused) throw new StaleWriteError('Workflow changed concurrently');
}

/**
 * Records that the workflow was triggered, at most once per `everyMs` (the condition skips the
 * write otherwise). It leaves the version alone: a trigger is not an edit of the workflow.
 */
export async function touchLastTriggered(scope: EnvScope, workflowId: string, at: Date, everyMs: number): Promise<void> {
  await writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.workflow(scope, workflowId),
        UpdateExpression: 'SET lastTriggeredAt = :at',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastTriggeredAt) OR lastTriggeredAt = :null OR lastTriggeredAt < :before)',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':null': null, ':before': new Date(at.getTime() - everyMs).toISOString() },
      }),
    ),
  );
}
