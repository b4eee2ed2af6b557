import type { StepFilter } from '../integrations/schemas.ts';
import { CHANNELS } from '../integrations/providers.ts';
import { isCritical, templateVariables, type StoredStep, type StoredWorkflow } from './model.ts';

// The same stored workflow in the older shape messages embed as `template` (interface.md
// "Workflow embedded in a Message"): triggers, steps with filters, metadata and a template.
// We have no notification groups, so `_notificationGroupId` is empty.

export interface EmbeddedStep {
  _id: string;
  uuid: string;
  name: string;
  _templateId: string;
  active: boolean;
  shouldStopOnFail: boolean;
  template: Record<string, unknown>;
  filters: StepFilter[];
  _parentId: string | null;
  metadata?: Record<string, unknown>;
  replyCallback: { active?: boolean; url?: string };
  variants: never[];
}

export interface EmbeddedWorkflow {
  _id: string;
  name: string;
  description: string;
  active: boolean;
  draft: boolean;
  preferenceSettings: Record<string, boolean>;
  critical: boolean;
  tags: string[];
  steps: EmbeddedStep[];
  _organizationId: string;
  _creatorId: string;
  _environmentId: string;
  triggers: { type: 'event'; identifier: string; variables: { name: string }[]; subscriberVariables: { name: string }[] }[];
  _notificationGroupId: string;
  deleted: boolean;
  deletedAt: string | null;
  deletedBy: string | null;
}

/** Digest and delay controls as the v1 metadata shapes. */
function metadataOf(step: StoredStep): Record<string, unknown> | undefined {
  const v = step.controlValues as {
    type?: string; amount?: number; unit?: string; cron?: string; digestKey?: string;
    lookBackWindow?: { amount: number; unit: string };
  };
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
  if (step.type === 'digest') {
    if (v.type === 'timed') return defined({ type: 'timed', digestKey: v.digestKey, timed: { cronExpression: v.cron } });
    return defined({
      type: 'regular', amount: v.amount, unit: v.unit, digestKey: v.digestKey,
      backoff: v.lookBackWindow !== undefined, backoffAmount: v.lookBackWindow?.amount, backoffUnit: v.lookBackWindow?.unit,
    });
  }
  if (step.type === 'delay') {
    // A cron delay has no v1 shape; it keeps its own type and expression.
    if (v.type === 'timed') return defined({ type: 'timed', cronExpression: v.cron });
    return defined({ type: 'regular', amount: v.amount, unit: v.unit });
  }
  return undefined;
}

function templateOf(step: StoredStep): Record<string, unknown> {
  const v = step.controlValues;
  return Object.fromEntries(
    Object.entries({
      _id: step._id,
      type: step.type,
      name: step.name,
      subject: v.subject,
      content: v.body,
      avatar: v.avatar,
    }).filter(([, x]) => x !== undefined),
  );
}

/** Names under `payload.` and `subscriber.` the templates use (and the payload schema declares). */
function triggerVariables(workflow: StoredWorkflow) {
  const payload = new Set<string>(Object.keys((workflow.payloadSchema?.properties as object | undefined) ?? {}));
  const subscriber = new Set<string>();
  for (const [root, ...rest] of workflow.steps.flatMap(templateVariables)) {
    if (rest.length === 0) continue;
    if (root === 'payload') payload.add(rest.join('.'));
    if (root === 'subscriber') subscriber.add(rest.join('.'));
  }
  const names = (set: Set<string>) => [...set].map((name) => ({ name }));
  return { variables: names(payload), subscriberVariables: names(subscriber) };
}

export function toEmbeddedWorkflow(workflow: StoredWorkflow): EmbeddedWorkflow {
  const preferences = workflow.userPreferences ?? workflow.defaultPreferences;
  return {
    _id: workflow._id,
    name: workflow.name,
    description: workflow.description ?? '',
    active: workflow.active,
    draft: !workflow.active,
    preferenceSettings: Object.fromEntries(
      CHANNELS.map((channel) => [channel, preferences.channels[channel]?.enabled ?? preferences.all.enabled]),
    ),
    critical: isCritical(workflow),
    tags: workflow.tags,
    steps: workflow.steps.map((step, index) => {
      const metadata = metadataOf(step);
      return {
        _id: step._id,
        uuid: step.stepId,
        name: step.name,
        _templateId: step._id,
        active: step.active,
        shouldStopOnFail: step.shouldStopOnFail ?? false,
        template: templateOf(step),
        filters: step.filters ?? [],
        _parentId: index === 0 ? null : workflow.steps[index - 1]!._id,
        ...(metadata && { metadata }),
        replyCallback: {},
        variants: [],
      };
    }),
    _organizationId: workflow._organizationId,
    _creatorId: workflow.updatedBy?._id ?? '',
    _environmentId: workflow._environmentId,
    triggers: [{ type: 'event', identifier: workflow.workflowId, ...triggerVariables(workflow) }],
    _notificationGroupId: '',
    deleted: false,
    deletedAt: null,
    deletedBy: null,
  };
}
