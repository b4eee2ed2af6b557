import type { Caller } from '../auth/caller.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { buildSteps, type ReadStep } from '../workflows/build.ts';
import { viewContext } from '../workflows/environment-channels.ts';
import {
  DEFAULT_WORKFLOW_PREFERENCES,
  STEP_TYPES,
  type BridgeStepDefinition,
  type StepType,
  type StoredWorkflow,
  type WorkflowPreferences,
} from '../workflows/model.ts';
import { removeWorkflow } from '../workflows/remove.ts';
import { getWorkflow, listWorkflows, saveWorkflow, type VersionedWorkflow } from '../workflows/repository.ts';
import type { WorkflowResponse } from '../workflows/schemas.ts';
import { workflowSlug } from '../workflows/slug.ts';
import { toWorkflowResponse } from '../workflows/view.ts';
import { askBridge } from './outbound-ask.ts';
import { BridgeCallError } from './call-result.ts';
import { discoverOutput, type DiscoveredStep, type DiscoveredWorkflow, type DiscoverOutput } from './discover.ts';
import { storeBridgeUrl, storedBridgeUrl } from './environment.ts';
import type { BridgeDiff } from './schemas.ts';

// POST /v1/bridge/sync (what `npx novu sync` calls): the bridge's discover, signed (made by the
// outbound consumer: lib/bridge/outbound-*.ts), then each workflow it declares created or updated as a
// code-first (`external`) workflow, the code-first workflows it no longer declares deleted, and
// the bridge URL stored on the environment. Every workflow is checked before anything is
// written, so a refused sync changes nothing. A step is matched to the stored one by stepId and
// kind and keeps its database id, so control values an author set for it stay attached.
// POST /v1/bridge/diff says what a sync would do, writing nothing.

export async function syncBridge(caller: Caller, bridgeUrl: string): Promise<WorkflowResponse[]> {
  const discovered = await discover(caller, bridgeUrl);
  await refuseDashboardClashes(caller, discovered);
  const saved: StoredWorkflow[] = [];
  for (const definition of discovered.workflows) {
    saved.push(await retryOnStaleWrite(() => upsert(caller, definition)));
  }
  const kept = new Set(discovered.workflows.map((w) => w.workflowId));
  for (const stale of (await listWorkflows(caller)).filter((w) => w.origin === 'external' && !kept.has(w.workflowId))) {
    await removeWorkflow(caller, stale.workflowId).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error; // deleted meanwhile
    });
  }
  await storeBridgeUrl(caller, bridgeUrl);
  const context = await viewContext(caller, saved);
  return saved.map((workflow) => toWorkflowResponse(workflow, context));
}

export async function diffBridge(caller: Caller, bridgeUrl: string): Promise<BridgeDiff> {
  const discovered = await discover(caller, bridgeUrl);
  const current = (await listWorkflows(caller)).filter((w) => w.origin === 'external').map((w) => w.workflowId);
  const next = discovered.workflows.map((w) => w.workflowId);
  return {
    current: { workflows: current, bridgeUrl: (await storedBridgeUrl(caller)) ?? null },
    new: { workflows: next, bridgeUrl },
    created: next.filter((id) => !current.includes(id)),
    updated: next.filter((id) => current.includes(id)),
    deleted: current.filter((id) => !next.includes(id)),
  };
}

async function discover(scope: EnvScope, bridgeUrl: string): Promise<DiscoverOutput> {
  let body: unknown;
  try {
    body = (await askBridge(scope, { url: bridgeUrl, action: 'discover', signed: true, attempts: 2 })).body;
  } catch (error) {
    if (error instanceof BridgeCallError) throw new BadRequestError(`Bridge discover failed: ${error.message}`);
    throw error;
  }
  const parsed = discoverOutput.safeParse(body);
  if (!parsed.success) throw new BadRequestError('Invalid Bridge URL Response: the discover answer is not a list of workflows');
  for (const workflow of parsed.data.workflows) {
    const unknown = workflow.steps.find((step) => !(STEP_TYPES as readonly string[]).includes(step.type));
    if (unknown) {
      throw new BadRequestError(
        `Workflow ${workflow.workflowId}: step ${unknown.stepId} is of type ${unknown.type}, which is not supported here`,
      );
    }
    const ids = workflow.steps.map((step) => step.stepId);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated) throw new BadRequestError(`Workflow ${workflow.workflowId}: stepId ${repeated} is used twice`);
  }
  const ids = parsed.data.workflows.map((w) => w.workflowId);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) throw new BadRequestError(`Workflow ${repeated} is declared twice`);
  return parsed.data;
}

/** The reference's 400 for a workflowId a dashboard workflow already has. */
async function refuseDashboardClashes(scope: EnvScope, discovered: DiscoverOutput): Promise<void> {
  const found = await Promise.all(discovered.workflows.map((w) => getWorkflow(scope, w.workflowId)));
  const clash = found.find((w) => w !== undefined && w.origin !== 'external');
  if (clash) throw new BadRequestError(`Workflow ${clash.workflowId} was already created in Dashboard. Please use another workflowId.`);
}

async function upsert(caller: Caller, definition: DiscoveredWorkflow): Promise<VersionedWorkflow> {
  const existing = await getWorkflow(caller, definition.workflowId);
  if (existing && existing.origin !== 'external') {
    throw new BadRequestError(`Workflow ${existing.workflowId} was already created in Dashboard. Please use another workflowId.`);
  }
  const now = new Date().toISOString();
  const _id = existing?._id ?? newId();
  const name = definition.name ?? definition.workflowId;
  const fields = {
    name,
    slug: workflowSlug(name, _id),
    tags: definition.tags ?? [],
    active: definition.active ?? true,
    validatePayload: false,
    payloadSchema: definition.payload?.schema ?? null,
    severity: definition.severity ?? 'none',
    origin: 'external' as const,
    steps: stepsOf(definition.steps, existing),
    defaultPreferences: preferencesOf(definition.preferences),
    updatedAt: now,
    updatedBy: { _id: caller.userId },
  };
  if (existing) {
    const { version: _version, description: _description, ...current } = existing;
    return saveWorkflow(
      { ...current, ...fields, ...(definition.description !== undefined && { description: definition.description }) },
      existing,
    );
  }
  return saveWorkflow({
    _id,
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    workflowId: definition.workflowId,
    ...(definition.description !== undefined && { description: definition.description }),
    isTranslationEnabled: false,
    userPreferences: null,
    createdAt: now,
    lastPublishedAt: null,
    lastTriggeredAt: null,
    ...fields,
  });
}

/** Steps in the bridge's order; a step matched by stepId and kind keeps its id and the control values set for it. */
function stepsOf(steps: DiscoveredStep[], existing: StoredWorkflow | undefined) {
  const read = steps.map((step): ReadStep => {
    const match = existing?.steps.find((s) => s.stepId === step.stepId && s.type === step.type);
    return {
      stepId: step.stepId,
      name: step.stepId,
      type: step.type as StepType,
      controlValues: match?.controlValues ?? {},
      templateReadings: [],
    } as ReadStep;
  });
  return buildSteps(read, existing?.steps).map((stored, index) => ({ ...stored, bridge: definitionOf(steps[index]!) }));
}

function definitionOf(step: DiscoveredStep): BridgeStepDefinition {
  return {
    controlSchema: step.controls?.schema ?? { type: 'object', properties: {}, additionalProperties: false },
    ...(step.type === 'custom' && step.outputs?.schema && { outputSchema: step.outputs.schema }),
    ...(step.options?.disableOutputSanitization === true && { disableOutputSanitization: true }),
  };
}

/** The workflow's own defaults: what its code sets over the service's. */
function preferencesOf(preferences: DiscoveredWorkflow['preferences']): WorkflowPreferences {
  const base = DEFAULT_WORKFLOW_PREFERENCES;
  const channels = { ...base.channels };
  for (const [channel, value] of Object.entries(preferences?.channels ?? {})) {
    if (channel in base.channels) channels[channel as keyof typeof channels] = { enabled: value.enabled ?? true };
  }
  return { all: { ...base.all, ...preferences?.all }, channels };
}
