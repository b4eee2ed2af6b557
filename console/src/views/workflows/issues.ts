import type { StepIssue, StepIssues, WorkflowStep } from './types.ts';

// A step's issues as one list (control issues by field, integration issues by channel), and
// the workflow's as the steps' together: the API derives them per step on every read.

export interface ListedIssue extends StepIssue {
  /** The control field or channel the issue is about. */
  field: string;
}

export function issuesOf(issues: StepIssues | undefined): ListedIssue[] {
  return [...Object.entries(issues?.controls ?? {}), ...Object.entries(issues?.integration ?? {})].flatMap(([field, list]) =>
    list.map((issue) => ({ ...issue, field })),
  );
}

export const workflowIssues = (steps: WorkflowStep[]) => steps.flatMap((step) => issuesOf(step.issues).map((issue) => ({ step, issue })));
