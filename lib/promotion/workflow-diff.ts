import { isDeepStrictEqual } from 'node:util';
import type { StoredStep, StoredWorkflow } from '../workflows/model.ts';
import { syncedContent } from '../workflows/sync.ts';
import { WORKFLOW_RESOURCE_TYPE, type ResourceChange, type ResourceDiff } from './schemas.ts';

// What publishing the source's workflows would change in the target, workflow by workflow (pure:
// the callers read both environments). Workflows are matched by workflowId and their steps by
// stepId, as the publish itself (the workflow sync) matches them. Only workflows made in the
// editor or by API are published (the ones the sync takes); a code-first or v1 workflow is
// neither compared nor deleted.

export type WorkflowAction = 'added' | 'modified' | 'deleted' | 'unchanged';

export interface WorkflowDiff extends ResourceDiff {
  workflowId: string;
  action: WorkflowAction;
  source?: StoredWorkflow;
  target?: StoredWorkflow;
}

const PUBLISHED_ORIGIN = 'svc-cloud';

export function diffWorkflows(sourceWorkflows: readonly StoredWorkflow[], targetWorkflows: readonly StoredWorkflow[]): WorkflowDiff[] {
  const published = (workflows: readonly StoredWorkflow[]) =>
    new Map(workflows.filter((w) => w.origin === PUBLISHED_ORIGIN).map((w) => [w.workflowId, w]));
  const sources = published(sourceWorkflows);
  const targets = published(targetWorkflows);
  const diffs: WorkflowDiff[] = [];
  for (const [workflowId, source] of sources) diffs.push(diffOne(workflowId, source, targets.get(workflowId)));
  for (const [workflowId, target] of targets) if (!sources.has(workflowId)) diffs.push(diffOne(workflowId, undefined, target));
  return diffs;
}

function diffOne(workflowId: string, source: StoredWorkflow | undefined, target: StoredWorkflow | undefined): WorkflowDiff {
  const sourceResource = source ? info(source) : null;
  const targetResource = target ? info(target) : null;
  const changes: ResourceChange[] = [];
  const previous = target ? workflowFields(target) : null;
  const next = source ? workflowFields(source) : null;
  const fieldsChanged = !isDeepStrictEqual(previous, next);
  const steps = stepChanges(source?.steps ?? [], target?.steps ?? []);
  const stepsChanged = steps.some((change) => change.action !== 'unchanged');
  const action: WorkflowAction = !target ? 'added' : !source ? 'deleted' : fieldsChanged || stepsChanged ? 'modified' : 'unchanged';
  changes.push({
    sourceResource,
    targetResource,
    resourceType: WORKFLOW_RESOURCE_TYPE,
    action,
    ...(action !== 'unchanged' && { diffs: { previous, new: next } }),
  });
  if (action !== 'unchanged') changes.push(...steps);
  return {
    workflowId,
    action,
    ...(source && { source }),
    ...(target && { target }),
    resourceType: WORKFLOW_RESOURCE_TYPE,
    sourceResource,
    targetResource,
    changes,
    summary: countActions(changes),
  };
}

/** What a publish copies of a workflow, its steps aside. */
function workflowFields(workflow: StoredWorkflow): Record<string, unknown> {
  const { steps: _steps, ...fields } = syncedContent(workflow);
  return { ...fields, preferences: { default: workflow.defaultPreferences, user: workflow.userPreferences } };
}

const stepContent = (step: StoredStep) => ({ name: step.name, type: step.type, controlValues: step.controlValues });

function stepChanges(sourceSteps: readonly StoredStep[], targetSteps: readonly StoredStep[]): ResourceChange[] {
  const changes: ResourceChange[] = [];
  sourceSteps.forEach((step, newIndex) => {
    const previousIndex = targetSteps.findIndex((t) => t.stepId === step.stepId);
    const before = previousIndex >= 0 ? targetSteps[previousIndex] : undefined;
    const same = before !== undefined && isDeepStrictEqual(stepContent(before), stepContent(step));
    const action = !before ? 'added' : !same ? 'modified' : previousIndex !== newIndex ? 'moved' : 'unchanged';
    changes.push({
      sourceResource: stepInfo(step),
      targetResource: before ? stepInfo(before) : null,
      resourceType: WORKFLOW_RESOURCE_TYPE,
      action,
      stepType: step.type,
      ...(before && { previousIndex }),
      newIndex,
      ...(action === 'added' || action === 'modified'
        ? { diffs: { previous: before ? stepContent(before) : null, new: stepContent(step) } }
        : {}),
    });
  });
  targetSteps.forEach((step, previousIndex) => {
    if (sourceSteps.some((s) => s.stepId === step.stepId)) return;
    changes.push({
      sourceResource: null,
      targetResource: stepInfo(step),
      resourceType: WORKFLOW_RESOURCE_TYPE,
      action: 'deleted',
      stepType: step.type,
      previousIndex,
      diffs: { previous: stepContent(step), new: null },
    });
  });
  return changes;
}

const info = (workflow: StoredWorkflow) => ({ id: workflow._id, name: workflow.name, updatedAt: workflow.updatedAt });
const stepInfo = (step: StoredStep) => ({ id: step.stepId, name: step.name });

/** Moved steps count as modified: their order is part of the workflow. */
function countActions(changes: readonly ResourceChange[]) {
  const summary = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  for (const { action } of changes) summary[action === 'moved' ? 'modified' : action] += 1;
  return summary;
}
