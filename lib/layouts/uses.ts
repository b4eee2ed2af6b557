import { tableName } from '../config.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import type { TransactItem } from '../store/transact.ts';

// Which workflows use a layout: in the layout's partition, one item per workflow whose email steps
// name it (`USEDBY#<workflowDbId>`, with the workflow's name and workflowId for the usage route)
// and the count of those items. Both are written in the workflow's own transaction (workflows/
// repository.ts), from the layouts it named before and names now, so the count is exact and a
// layout delete, conditioned on it, is refused while any workflow uses the layout. Items are keyed
// by the identifier the step names, whether or not such a layout exists yet.

export interface LayoutUser {
  _id: string;
  workflowId: string;
  name: string;
  steps: readonly { type: string; controlValues: Record<string, unknown> }[];
  /** Absent on a workflow stored before uses were recorded: it has none to bring up to date. */
  layoutUsesTracked?: true;
}

/** The layout a step names: an email step's `layoutId`; omitted, null and empty name none (the default or no layout). */
export function layoutNamedBy(step: LayoutUser['steps'][number]): string | undefined {
  const { layoutId } = step.controlValues;
  return step.type === 'email' && typeof layoutId === 'string' && layoutId !== '' ? layoutId : undefined;
}

/** The layouts a workflow's email steps name, each once. */
export function layoutsUsedBy(workflow: Pick<LayoutUser, 'steps'> | undefined): string[] {
  const used = new Set<string>();
  for (const step of workflow?.steps ?? []) {
    const layoutId = layoutNamedBy(step);
    if (layoutId !== undefined) used.add(layoutId);
  }
  return [...used];
}

/**
 * The writes that bring the use items from `before` (the workflow as stored, undefined when new)
 * to `after` (as it will be stored, undefined when deleted): the items of layouts it uses are
 * written again (its name or workflowId may have changed), and the count moves for layouts it
 * starts or stops using.
 */
export function layoutUseWrites(scope: EnvScope, before: LayoutUser | undefined, after: LayoutUser | undefined): TransactItem[] {
  const was = new Set(before?.layoutUsesTracked ? layoutsUsedBy(before) : []);
  const now = new Set(layoutsUsedBy(after));
  const count = (layoutId: string, by: number): TransactItem => ({
    Update: {
      TableName: tableName(),
      Key: keys.layoutUseCount(scope, layoutId),
      UpdateExpression: 'ADD uses :by',
      ExpressionAttributeValues: { ':by': by },
    },
  });
  const writes: TransactItem[] = [];
  for (const layoutId of now) {
    writes.push({
      Put: {
        TableName: tableName(),
        Item: { ...keys.layoutUse(scope, layoutId, after!._id), type: 'LayoutUse', workflowId: after!.workflowId, name: after!.name },
      },
    });
    if (!was.has(layoutId)) writes.push(count(layoutId, 1));
  }
  for (const layoutId of was) {
    if (now.has(layoutId)) continue;
    writes.push({ Delete: { TableName: tableName(), Key: keys.layoutUse(scope, layoutId, before!._id) } });
    writes.push(count(layoutId, -1));
  }
  return writes;
}

/** The workflows that use a layout (by the identifier their steps name). */
export async function usesOfLayout(scope: EnvScope, layoutId: string): Promise<{ workflowId: string; name: string }[]> {
  const key = keys.usesOfLayout(scope, layoutId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': key.pk, ':prefix': key.skPrefix },
  });
  return items.map((item) => ({ workflowId: item.workflowId as string, name: item.name as string }));
}
