import type { Channel } from '../integrations/catalogue.ts';
import { CHANNEL_STEP_TYPES, type StoredStep, type StoredWorkflow } from './model.ts';
import { isAllowedVariable, stepVariables } from './variables.ts';
import { layoutNamedBy } from '../layouts/uses.ts';
import { controlsOverDeferLimit, deferLimitMessage } from './defer-limit.ts';

// The issues of a workflow's steps, computed from the stored model, the environment's active
// integration channels and the layouts it has, and the status they give. Issues are not stored: they are derived on
// every read, so a workflow synced to (or an integration added in) an environment shows the
// issues of that environment. Templates are not parsed here: the step's stored readings say what
// its Liquid names (templates.ts parses it when the step is saved).

export type ControlIssueType =
  'MISSING_VALUE' | 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE' | 'INVALID_FILTER_ARG_IN_VARIABLE' | 'TIER_LIMIT_EXCEEDED';
export type IntegrationIssueType = 'MISSING_INTEGRATION';

export interface Issue<T extends string = string> {
  issueType: T;
  variableName?: string;
  message: string;
}

export interface StepIssues {
  controls?: Record<string, Issue<ControlIssueType>[]>;
  integration?: Record<string, Issue<IntegrationIssueType>[]>;
}

export type WorkflowStatus = 'ACTIVE' | 'INACTIVE' | 'ERROR';

/** What decides which variables a step's templates may name. */
type WorkflowTemplates = Pick<StoredWorkflow, 'steps' | 'payloadSchema'> & Partial<Pick<StoredWorkflow, 'origin'>>;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Required controls of each kind that are empty; which are required can depend on other values. */
function missingFields(step: StoredStep): string[] {
  // A code-first step's content is its code's: the bridge checks its controls when it runs.
  if (step.bridge) return [];
  const v = step.controlValues;
  const missing = (...fields: string[]) => fields.filter((field) => blank(v[field]));
  switch (step.type) {
    case 'in_app':
      return blank(v.body) && blank(v.subject) ? ['body'] : [];
    case 'email':
      return missing('subject', 'body');
    case 'sms':
    case 'chat':
      return missing('body');
    case 'push':
      return missing('subject', 'body');
    case 'digest':
    case 'delay':
      return v.type === 'timed' ? missing('cron') : missing('amount', 'unit');
    case 'throttle':
      return v.type === 'dynamic' ? missing('dynamicKey') : missing('amount', 'unit');
    case 'custom':
      return [];
  }
}

function controlIssues(workflow: WorkflowTemplates, index: number, layouts: ReadonlySet<string>) {
  const step = workflow.steps[index]!;
  const issues: Record<string, Issue<ControlIssueType>[]> = {};
  const add = (field: string, issue: Issue<ControlIssueType>) => (issues[field] ??= []).push(issue);

  for (const field of missingFields(step)) {
    add(field, { issueType: 'MISSING_VALUE', message: `${field} is required` });
  }
  // Saved, as the reference does, but flagged: the step fails when it runs (steps/over-defer-limit.ts).
  if (step.type === 'delay' || step.type === 'digest') {
    for (const field of controlsOverDeferLimit(step.controlValues))
      add(field, { issueType: 'TIER_LIMIT_EXCEEDED', message: deferLimitMessage() });
  }
  // A delay waiting for engagement of a step that does not come before it: a plain delay when it runs.
  const waitFor = step.type === 'delay' ? (step.controlValues.waitFor as { stepId?: string } | undefined) : undefined;
  if (waitFor?.stepId !== undefined) {
    const earlier = workflow.steps.slice(0, index).some((s) => s.stepId === waitFor.stepId && CHANNEL_STEP_TYPES.includes(s.type));
    if (!earlier)
      add('waitFor', {
        issueType: 'MISSING_VALUE',
        message: `waitFor.stepId must name an earlier channel step (${waitFor.stepId} is none)`,
      });
  }
  // The reference refuses such a step (404); here it is saved and shows this until the layout exists.
  const layoutId = layoutNamedBy(step);
  if (layoutId !== undefined && !layouts.has(layoutId)) {
    add('layoutId', { issueType: 'MISSING_VALUE', message: `Layout ${layoutId} not found in this environment` });
  }
  const variables = stepVariables(workflow, index);
  for (const reading of step.templateReadings) {
    const { field } = reading;
    if (!reading.ok) {
      add(field, {
        issueType: reading.kind === 'filter' ? 'INVALID_FILTER_ARG_IN_VARIABLE' : 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        message: reading.message,
      });
      continue;
    }
    for (const path of reading.variables) {
      if (isAllowedVariable(variables, path)) continue;
      const name = path.join('.');
      add(field, {
        issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        variableName: name,
        message:
          `Variable ${name} is not available here: ` +
          'use subscriber.*, payload.* (as the payload schema defines it) or steps.<earlier stepId>.*',
      });
    }
  }
  return issues;
}

export function stepIssues(
  workflow: WorkflowTemplates,
  index: number,
  activeChannels: ReadonlySet<Channel>,
  layouts: ReadonlySet<string>,
): StepIssues {
  const step = workflow.steps[index]!;
  const result: StepIssues = {};
  const controls = controlIssues(workflow, index, layouts);
  if (Object.keys(controls).length > 0) result.controls = controls;
  if (CHANNEL_STEP_TYPES.includes(step.type) && !activeChannels.has(step.type as Channel)) {
    result.integration = {
      [step.type]: [{ issueType: 'MISSING_INTEGRATION', message: `No active ${step.type} integration in this environment` }],
    };
  }
  return result;
}

export function hasIssues(issues: StepIssues): boolean {
  return issues.controls !== undefined || issues.integration !== undefined;
}

/** Inactive first (as the reference), then any issue makes the workflow ERROR. */
export function workflowStatus(active: boolean, issues: readonly StepIssues[]): WorkflowStatus {
  if (!active) return 'INACTIVE';
  return issues.some(hasIssues) ? 'ERROR' : 'ACTIVE';
}
