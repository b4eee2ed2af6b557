import type { Caller } from '../auth/caller.ts';
import { listWorkflows } from '../workflows/repository.ts';
import { resolveEnvironmentPair, type EnvironmentPair } from './environment-pair.ts';
import type { EnvironmentDiff } from './schemas.ts';
import { diffWorkflows, type WorkflowDiff } from './workflow-diff.ts';

// POST /v2/environments/{targetEnvironmentId}/diff: what a publish from the source would change
// in the target. Layouts and translations travel with the workflows that use them (the sync
// brings them), so they are not resources of their own here.

export async function diffEnvironment(caller: Caller, targetEnvironmentId: string, sourceEnvironmentId?: string): Promise<EnvironmentDiff> {
  const pair = await resolveEnvironmentPair(caller, targetEnvironmentId, sourceEnvironmentId);
  const diffs = await workflowDiffs(pair);
  const totalChanges = diffs.reduce((sum, { summary }) => sum + summary.added + summary.modified + summary.deleted, 0);
  return {
    sourceEnvironmentId: pair.source.environmentId,
    targetEnvironmentId: pair.target.environmentId,
    resources: diffs.map(({ workflowId: _w, action: _a, source: _s, target: _t, ...resource }) => resource),
    summary: { totalEntities: diffs.length, totalChanges, hasChanges: totalChanges > 0 },
  };
}

/** Both environments' workflows (one Query of each), compared. */
export async function workflowDiffs(pair: EnvironmentPair): Promise<WorkflowDiff[]> {
  const [sourceWorkflows, targetWorkflows] = await Promise.all([listWorkflows(pair.source), listWorkflows(pair.target)]);
  return diffWorkflows(sourceWorkflows, targetWorkflows);
}
