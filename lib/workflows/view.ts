import type { Channel } from '../integrations/catalogue.ts';
import { controlsDataSchema } from './controls.ts';
import { hasIssues, stepIssues, workflowStatus, type StepIssues } from './issues.ts';
import { isCritical, type StoredWorkflow } from './model.ts';
import { payloadExample } from './payload-example.ts';
import type { WorkflowList, WorkflowResponse } from './schemas.ts';
import { uiSchemaOf } from './ui-schema.ts';
import { stepVariables } from './variables.ts';

// The one v2 view of the stored model ("Workflow (v2 response)"). Issues and status depend on
// the environment's active integration channels and on which layouts its steps name exist, which
// the caller reads once and passes in.

export interface ViewContext {
  activeChannels: ReadonlySet<Channel>;
  /** Of the layouts the workflows' email steps name, those the environment has. */
  layouts: ReadonlySet<string>;
}

function issuesOf(workflow: StoredWorkflow, context: ViewContext): StepIssues[] {
  return workflow.steps.map((_, index) => stepIssues(workflow, index, context.activeChannels, context.layouts));
}

/** The fields that name and describe a workflow, shared by the full view and the list item. */
function identity(workflow: StoredWorkflow) {
  return {
    _id: workflow._id,
    workflowId: workflow.workflowId,
    slug: workflow.slug,
    name: workflow.name,
    ...(workflow.description !== undefined && { description: workflow.description }),
    tags: workflow.tags,
    active: workflow.active,
  };
}

export function toWorkflowResponse(workflow: StoredWorkflow, context: ViewContext): WorkflowResponse {
  const issues = issuesOf(workflow, context);
  return {
    ...identity(workflow),
    validatePayload: workflow.validatePayload,
    payloadSchema: workflow.payloadSchema,
    payloadExample: payloadExample(workflow),
    isTranslationEnabled: workflow.isTranslationEnabled,
    severity: workflow.severity,
    critical: isCritical(workflow),
    origin: workflow.origin,
    status: workflowStatus(workflow.active, issues),
    preferences: { user: workflow.userPreferences, default: workflow.defaultPreferences },
    steps: workflow.steps.map((step, index) => ({
      _id: step._id,
      stepId: step.stepId,
      name: step.name,
      slug: step.slug,
      type: step.type,
      origin: workflow.origin,
      workflowId: workflow.workflowId,
      workflowDatabaseId: workflow._id,
      // A code-first step's controls are the ones its code declares (no editor layout of ours).
      controls: step.bridge
        ? { dataSchema: step.bridge.controlSchema, values: step.controlValues }
        : { dataSchema: controlsDataSchema(step.type), uiSchema: uiSchemaOf(step.type), values: step.controlValues },
      controlValues: step.controlValues,
      variables: stepVariables(workflow, index),
      issues: issues[index]!,
    })),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
    ...(workflow.updatedBy && { updatedBy: workflow.updatedBy }),
    lastPublishedAt: workflow.lastPublishedAt ?? null,
    ...(workflow.lastPublishedBy && { lastPublishedBy: workflow.lastPublishedBy }),
    lastTriggeredAt: workflow.lastTriggeredAt ?? null,
  };
}

export function toWorkflowListItem(workflow: StoredWorkflow, context: ViewContext): WorkflowList['workflows'][number] {
  const issues = issuesOf(workflow, context);
  return {
    ...identity(workflow),
    severity: workflow.severity,
    origin: workflow.origin,
    status: workflowStatus(workflow.active, issues),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
    lastTriggeredAt: workflow.lastTriggeredAt ?? null,
    stepTypeOverviews: workflow.steps.map((step) => step.type),
    // Each step's issues only when it has some: the list says which step keeps the workflow in ERROR.
    steps: workflow.steps.map((step, index) => ({
      slug: step.slug,
      type: step.type,
      ...(hasIssues(issues[index]!) && { issues: issues[index]! }),
    })),
  };
}
