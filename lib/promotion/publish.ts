import type { Caller } from '../auth/caller.ts';
import { AppError } from '../errors.ts';
import { removeWorkflow } from '../workflows/remove.ts';
import { syncWorkflow } from '../workflows/sync.ts';
import { workflowDiffs } from './diff.ts';
import { resolveEnvironmentPair } from './environment-pair.ts';
import { WORKFLOW_LIKE_TYPES, WORKFLOW_RESOURCE_TYPE, type PublishEnvironmentInput, type PublishResult } from './schemas.ts';
import type { WorkflowDiff } from './workflow-diff.ts';

// POST /v2/environments/{targetEnvironmentId}/publish: the source's changed workflows into the
// target through the workflow sync (PUT /v2/workflows/{workflowId}/sync's verb: the layouts their
// email steps name and their translations come along), and the target's workflows the source no
// longer has deleted, as the reference's publish does. One workflow at a time: one that fails is
// reported and the others go on. `dryRun` reports the same without writing. `resources` narrows
// it to the workflows named (by database id or workflowId).

type Result = PublishResult['results'][number];

export async function publishEnvironment(
  caller: Caller,
  targetEnvironmentId: string,
  input: PublishEnvironmentInput,
): Promise<PublishResult> {
  const pair = await resolveEnvironmentPair(caller, targetEnvironmentId, input.sourceEnvironmentId);
  const diffs = await workflowDiffs(pair);
  const result: Result = { resourceType: WORKFLOW_RESOURCE_TYPE, successful: [], failed: [], skipped: [], totalProcessed: 0 };
  const entity = (diff: WorkflowDiff) => ({
    resourceType: WORKFLOW_RESOURCE_TYPE,
    resourceId: (diff.source ?? diff.target)!._id,
    resourceName: (diff.source ?? diff.target)!.name,
  });

  for (const requested of input.resources ?? []) {
    if (!WORKFLOW_LIKE_TYPES.has(requested.resourceType)) {
      result.skipped.push({
        resourceType: WORKFLOW_RESOURCE_TYPE,
        resourceId: requested.resourceId,
        resourceName: requested.resourceId,
        reason: `${requested.resourceType} resources are published with the workflows that use them`,
      });
    } else if (!diffs.some((diff) => names(diff, requested.resourceId))) {
      result.skipped.push({
        resourceType: WORKFLOW_RESOURCE_TYPE,
        resourceId: requested.resourceId,
        resourceName: requested.resourceId,
        reason: 'Workflow not found in the source or target environment',
      });
    }
  }
  const selected = input.resources
    ? diffs.filter((diff) => input.resources!.some((r) => WORKFLOW_LIKE_TYPES.has(r.resourceType) && names(diff, r.resourceId)))
    : diffs;

  for (const diff of selected) {
    if (diff.action === 'unchanged') {
      result.skipped.push({ ...entity(diff), reason: 'No changes detected' });
      continue;
    }
    const action = diff.action === 'added' ? 'created' : diff.action === 'modified' ? 'updated' : 'deleted';
    try {
      if (!input.dryRun) {
        if (diff.action === 'deleted') await removeWorkflow(pair.target, diff.workflowId);
        else await syncWorkflow(caller, diff.workflowId, pair.target.environmentId);
      }
      result.successful.push({ ...entity(diff), action });
    } catch (error) {
      // A refusal (the workflow changed or went meanwhile) is the workflow's; anything else is the call's.
      if (!(error instanceof AppError)) throw error;
      result.failed.push({ ...entity(diff), error: error.message });
    }
  }
  result.totalProcessed = result.successful.length + result.failed.length + result.skipped.length;
  return {
    results: [result],
    summary: {
      resources: result.totalProcessed,
      successful: result.successful.length,
      failed: result.failed.length,
      skipped: result.skipped.length,
    },
  };
}

/** Whether a requested id names the workflow: its database id in either environment, or its workflowId. */
const names = (diff: WorkflowDiff, id: string): boolean => id === diff.workflowId || id === diff.source?._id || id === diff.target?._id;
