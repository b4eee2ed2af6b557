import type { Channel } from '../integrations/catalogue.ts';
import type { StepFilter } from '../integrations/schemas.ts';

// The one stored model of a workflow. The v2 API shows it as the "Workflow (v2 response)", the
// pipeline runs it, preferences read its channels and defaults, and messages embed it in the v1
// shape: all are views of this.

export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay', 'throttle', 'custom'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const CHANNEL_STEP_TYPES: readonly StepType[] = ['in_app', 'email', 'sms', 'chat', 'push'];

/** A variable a template names, as path segments: `{{ payload.items[0].name }}` → payload, items, 0, name. */
export type VariablePath = (string | number)[];

/** The variables a template's Liquid names, or why it does not parse. */
export type ParsedTemplate = { ok: true; variables: VariablePath[] } | { ok: false; kind: 'filter' | 'syntax'; message: string };

/** The parse of one control value, named by its dotted path (`primaryAction.label`). */
export type TemplateReading = { field: string } & ParsedTemplate;

export interface StoredStep {
  /** Database id of the step. */
  _id: string;
  /** The author's id of the step, unique within the workflow; sync and updates match on it. */
  stepId: string;
  name: string;
  slug: string;
  type: StepType;
  /** False only for steps of older (v1) workflows switched off by their author. */
  active: boolean;
  /** The control values of the step's kind (the API's control objects, controls.ts). */
  controlValues: Record<string, unknown>;
  /**
   * The Liquid of the control values, parsed when an author sends the step (templates.ts
   * `readSteps`; sync copies them): an entry per value that names variables or does not parse, in
   * control order. Issues, the payload example and the v1 triggers are derived from these, so
   * reading a workflow needs no template engine.
   */
  templateReadings: TemplateReading[];
  /** Step conditions of older workflows (StepFilter); v2 steps use `controlValues.skip`. */
  filters?: StepFilter[];
  shouldStopOnFail?: boolean;
  /** Set by v1 authors and shown by the v1 view; there is no inbound-mail route here to call it. */
  replyCallback?: { active?: boolean; url?: string };
  /**
   * Steps of code-first (`external`) workflows: what the bridge's discover said of the step. Its
   * content comes from the bridge when it runs (lib/bridge/); `controlValues` then holds only the
   * values an author set in the console, sent to the bridge as the step's controls.
   */
  bridge?: BridgeStepDefinition;
}

export interface BridgeStepDefinition {
  /** JSON Schema of the step's controls (the API's `controls.dataSchema`). */
  controlSchema: Record<string, unknown>;
  /** JSON Schema of what the step returns (custom steps' results). */
  outputSchema?: Record<string, unknown>;
  disableOutputSanitization?: boolean;
}

/** A preferences document: `all.readOnly` is what makes a workflow critical. */
export interface WorkflowPreferences {
  all: { enabled: boolean; readOnly: boolean };
  channels: Partial<Record<Channel, { enabled: boolean }>>;
}

export const DEFAULT_WORKFLOW_PREFERENCES: WorkflowPreferences = {
  all: { enabled: true, readOnly: false },
  channels: {
    email: { enabled: true },
    sms: { enabled: true },
    in_app: { enabled: true },
    chat: { enabled: true },
    push: { enabled: true },
  },
};

export type Severity = 'high' | 'medium' | 'low' | 'none';
export type Origin = 'svc-cloud' | 'svc-cloud-v1' | 'external';

export interface UserRef {
  _id: string;
  firstName?: string | null;
  lastName?: string | null;
  externalId?: string | null;
}

export interface StoredWorkflow {
  /** Database id. */
  _id: string;
  _organizationId: string;
  _environmentId: string;
  /** The trigger identifier (bulk trigger `name`), unique in the environment. */
  workflowId: string;
  slug: string;
  name: string;
  description?: string;
  tags: string[];
  active: boolean;
  validatePayload: boolean;
  payloadSchema: Record<string, unknown> | null;
  isTranslationEnabled: boolean;
  severity: Severity;
  origin: Origin;
  steps: StoredStep[];
  /** The workflow's own defaults (what the reference stores as WORKFLOW_RESOURCE). */
  defaultPreferences: WorkflowPreferences;
  /** The author's overrides (USER_WORKFLOW), if any. */
  userPreferences: WorkflowPreferences | null;
  createdAt: string;
  updatedAt: string;
  updatedBy?: UserRef;
  lastPublishedAt?: string | null;
  lastPublishedBy?: UserRef;
  lastTriggeredAt?: string | null;
  /** The author's own data of a v1 workflow (`data`), shown by the v1 view. */
  data?: Record<string, unknown>;
  /**
   * Set by every write since the layouts its email steps name are recorded with it
   * (layouts/uses.ts): a workflow stored before has no such records to bring up to date.
   */
  layoutUsesTracked?: true;
}

/** Every variable path the step's templates name (of those that parse), in control order. */
export function templateVariables(step: Pick<StoredStep, 'templateReadings'>): VariablePath[] {
  return step.templateReadings.flatMap((reading) => (reading.ok ? reading.variables : []));
}

/** Templates of v1 workflows see the payload's values at the top level too (`{{orderId}}`), as the reference's do. */
export function payloadAtTopLevel(origin: Origin | undefined): boolean {
  return origin === 'svc-cloud-v1';
}

/** Critical workflows ignore subscriber preferences: the author's setting wins over the default. */
export function isCritical(workflow: Pick<StoredWorkflow, 'defaultPreferences' | 'userPreferences'>): boolean {
  return (workflow.userPreferences ?? workflow.defaultPreferences).all.readOnly;
}

/** Channels the workflow's active steps deliver on, in step order, each once. */
export function channelsOf(workflow: Pick<StoredWorkflow, 'steps'>): Channel[] {
  const channels: Channel[] = [];
  for (const step of workflow.steps) {
    if (step.active && CHANNEL_STEP_TYPES.includes(step.type) && !channels.includes(step.type as Channel)) {
      channels.push(step.type as Channel);
    }
  }
  return channels;
}
