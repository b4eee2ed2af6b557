// The fields of the v2 workflow API's bodies this area reads (lib/workflows/schemas.ts documents
// them whole); the console does not import server code.

export type WorkflowStatus = 'ACTIVE' | 'INACTIVE' | 'ERROR';

export interface WorkflowListItem {
  _id: string;
  workflowId: string;
  name: string;
  tags: string[];
  active: boolean;
  status: WorkflowStatus;
  updatedAt: string;
  stepTypeOverviews: string[];
  /** `external`: a code-first workflow, defined in the customer's app and synced with `npx novu sync`. */
  origin: string;
}

export interface WorkflowList {
  workflows: WorkflowListItem[];
  totalCount: number;
}

export interface StepIssue {
  issueType: string;
  variableName?: string;
  message: string;
}

export interface StepIssues {
  controls?: Record<string, StepIssue[]>;
  integration?: Record<string, StepIssue[]>;
}

export interface WorkflowStep {
  _id: string;
  stepId: string;
  name: string;
  type: string;
  origin: string;
  workflowId: string;
  /** `dataSchema`: a code-first step's control schema, as its code declares it. */
  controls: { values: Record<string, unknown>; dataSchema?: Record<string, unknown> };
  issues?: StepIssues;
}

export interface ChannelPreferences {
  all: { enabled: boolean; readOnly: boolean };
  channels: Record<string, { enabled: boolean }>;
}

export interface Workflow extends Omit<WorkflowListItem, 'stepTypeOverviews'> {
  description?: string;
  payloadSchema: Record<string, unknown> | null;
  /** The API's own example: from the schema, else from the payload variables the steps use. */
  payloadExample: Record<string, unknown> | null;
  validatePayload: boolean;
  severity: string;
  critical: boolean;
  preferences: { user: ChannelPreferences | null; default: ChannelPreferences };
  steps: WorkflowStep[];
  createdAt: string;
  lastTriggeredAt?: string | null;
}

/** POST /v1/events/trigger's answer, in the reference's `{data}` envelope. */
export interface TriggerResult {
  data: { acknowledged: boolean; status: string; transactionId?: string; error?: string[] };
}
