import type { Caller } from '../auth/caller.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getEnvironment } from '../accounts/environments.ts';
import { copyWorkflowTranslations } from '../translations/workflow-translations.ts';
import { buildSteps, newWorkflow, type ReadStep } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import type { StoredWorkflow } from './model.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { getWorkflow, saveWorkflow } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { WorkflowResponse } from './schemas.ts';
import { workflowSlug } from './slug.ts';
import { toWorkflowResponse } from './view.ts';
import { syncLayoutsOf } from '../layouts/sync.ts';

// PUT /v2/workflows/{workflowId}/sync: copies a workflow to another environment of the
// organization. The copy is matched by workflowId; its steps by stepId, so steps that exist
// in both keep the target's ids and steps only the target has are removed. The layouts its email
// steps name are brought first (layouts/sync.ts), so the copy's steps find them. Its translations
// replace the target's.

const SYNCABLE_ORIGINS = ['svc-cloud'] as const;

export async function syncWorkflow(caller: Caller, ref: string, targetEnvironmentId: string): Promise<WorkflowResponse> {
  if (targetEnvironmentId === caller.environmentId) throw new BadRequestError('Cannot sync workflow to the same environment');
  if (!(await getEnvironment(caller.organizationId, targetEnvironmentId))) {
    throw new NotFoundError(`Environment ${targetEnvironmentId} not found`);
  }
  const source = await requireWorkflow(caller, ref);
  if (!(SYNCABLE_ORIGINS as readonly string[]).includes(source.origin)) {
    throw new BadRequestError(
      `Cannot sync workflow: origin '${source.origin}' is not allowed (must be one of: ${SYNCABLE_ORIGINS.join(', ')})`,
    );
  }

  const target: EnvScope = { organizationId: caller.organizationId, environmentId: targetEnvironmentId };
  await syncLayoutsOf(caller, source, { ...caller, ...target });
  const saved = await retryOnStaleWrite(() => upsertInTarget(source, { ...caller, ...target }));
  await copyWorkflowTranslations({ scope: caller, workflow: source }, { scope: target, workflow: saved });
  await markPublished(caller, source.workflowId);
  return toWorkflowResponse(saved, await viewContext(target, [saved]));
}

/** What the target takes from the source: everything an author sets, none of the source's ids. */
export function syncedContent(source: StoredWorkflow) {
  const steps: ReadStep[] = source.steps.map((step) => ({
    stepId: step.stepId,
    name: step.name,
    type: step.type,
    controlValues: structuredClone(step.controlValues),
    templateReadings: structuredClone(step.templateReadings),
  }));
  return {
    name: source.name,
    ...(source.description !== undefined && { description: source.description }),
    tags: [...source.tags],
    active: source.active,
    validatePayload: source.validatePayload,
    payloadSchema: source.payloadSchema,
    isTranslationEnabled: source.isTranslationEnabled,
    severity: source.severity,
    steps,
  };
}

async function upsertInTarget(source: StoredWorkflow, targetCaller: Caller): Promise<StoredWorkflow> {
  const content = syncedContent(source);
  const preferences = { defaultPreferences: source.defaultPreferences, userPreferences: source.userPreferences };
  const existing = await getWorkflow(targetCaller, source.workflowId);
  if (!existing) {
    const created = newWorkflow(targetCaller, { ...content, workflowId: source.workflowId });
    try {
      return await saveWorkflow({ ...created, ...preferences });
    } catch (error) {
      // Another sync created it first: redo as an update of that one.
      if (error instanceof ConflictError) throw new StaleWriteError('Workflow created concurrently');
      throw error;
    }
  }
  const { version: _version, ...current } = existing;
  const { steps, ...fields } = content;
  const next: StoredWorkflow = {
    ...current,
    ...fields,
    ...preferences,
    slug: workflowSlug(fields.name, current._id),
    origin: 'svc-cloud',
    steps: buildSteps(steps, current.steps),
    updatedAt: new Date().toISOString(),
    updatedBy: { _id: targetCaller.userId },
  };
  if (source.description === undefined) delete next.description;
  return saveWorkflow(next, existing);
}

async function markPublished(caller: Caller, workflowId: string): Promise<void> {
  await retryOnStaleWrite(async () => {
    const current = await getWorkflow(caller, workflowId);
    if (!current) return; // deleted meanwhile: nothing to mark
    const { version: _version, ...workflow } = current;
    await saveWorkflow({ ...workflow, lastPublishedAt: new Date().toISOString(), lastPublishedBy: { _id: caller.userId } }, current);
  });
}
