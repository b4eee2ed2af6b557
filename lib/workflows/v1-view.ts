import type { StepFilter } from '../integrations/schemas.ts';
import { CHANNELS } from '../integrations/catalogue.ts';
import { isCritical, payloadAtTopLevel, templateVariables, type Origin, type StoredStep, type StoredWorkflow } from './model.ts';
import { notificationGroupIdOf, notificationGroupOf, type NotificationGroup } from './notification-group.ts';
import { TOP_LEVEL_VARIABLE_ROOTS } from './variables.ts';

// The same stored workflow in the older (v1) shape: what messages and the activity feed embed as
// `template` (the API's workflow embedded in a message), and, with its dates, origin, group
// and data, what `/v1/notification-templates` answers (`toV1Workflow`). Triggers, steps with
// filters, metadata and a message template made from the step's control values (v1-steps.ts
// makes control values from a v1 template, so a v1 workflow reads back as it was sent).

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

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));

/** Digest and delay controls as the v1 metadata shapes. */
function metadataOf(step: StoredStep): Record<string, unknown> | undefined {
  const v = step.controlValues as {
    type?: string;
    amount?: number;
    unit?: string;
    cron?: string;
    digestKey?: string;
    dynamicKey?: string;
    lookBackWindow?: { amount: number; unit: string };
  };
  if (step.type === 'digest') {
    if (v.type === 'timed') return defined({ type: 'timed', digestKey: v.digestKey, timed: { cronExpression: v.cron } });
    return defined({
      type: 'regular',
      amount: v.amount,
      unit: v.unit,
      digestKey: v.digestKey,
      backoff: v.lookBackWindow !== undefined,
      backoffAmount: v.lookBackWindow?.amount,
      backoffUnit: v.lookBackWindow?.unit,
    });
  }
  if (step.type === 'delay') {
    // A cron delay has no v1 shape; it keeps its own type and expression.
    if (v.type === 'timed') return defined({ type: 'timed', cronExpression: v.cron });
    if (v.type === 'dynamic') return defined({ type: 'scheduled', delayPath: v.dynamicKey });
    return defined({ type: 'regular', amount: v.amount, unit: v.unit });
  }
  return undefined;
}

interface Action {
  label?: string;
  redirect?: { url?: string; target?: string };
}

/** The in-app redirect and actions as the v1 call to action. */
function ctaOf(v: { redirect?: Action['redirect']; primaryAction?: Action; secondaryAction?: Action }) {
  const buttons = (['primary', 'secondary'] as const).flatMap((type) => {
    const action = type === 'primary' ? v.primaryAction : v.secondaryAction;
    return action?.label === undefined
      ? []
      : [defined({ type, content: action.label, url: action.redirect?.url, target: action.redirect?.target })];
  });
  return {
    type: 'redirect',
    data: defined({ url: v.redirect?.url ?? '', target: v.redirect?.target }),
    ...(buttons.length > 0 && { action: { buttons } }),
  };
}

/** The step's message template (MessageTemplate): its control values under their v1 names. */
function templateOf(step: StoredStep): Record<string, unknown> {
  const v = step.controlValues as Record<string, never>;
  const base = { _id: step._id, type: step.type, name: step.name };
  switch (step.type) {
    case 'in_app':
      return defined({
        ...base,
        subject: v.subject,
        content: v.body ?? '',
        avatar: v.avatar,
        ...(v.avatar !== undefined && { actor: { type: 'system_custom', data: v.avatar } }),
        cta: ctaOf(v),
      });
    case 'email':
      return defined({
        ...base,
        subject: v.subject,
        content: v.body ?? '',
        contentType: 'customHtml',
        layoutId: v.layoutId,
        senderName: v.senderName,
      });
    case 'push':
      return defined({ ...base, title: v.subject, content: v.body ?? '' });
    case 'sms':
    case 'chat':
      return { ...base, content: v.body ?? '' };
    default:
      return base;
  }
}

/**
 * Names under `payload.` and `subscriber.` the templates use (and the payload schema declares).
 * Templates of v1 workflows also name payload values at the top level (`{{orderId}}`).
 */
function triggerVariables(workflow: StoredWorkflow) {
  const payload = new Set<string>(Object.keys((workflow.payloadSchema?.properties as object | undefined) ?? {}));
  const subscriber = new Set<string>();
  const topLevelPayload = payloadAtTopLevel(workflow.origin);
  for (const [root, ...rest] of workflow.steps.flatMap(templateVariables)) {
    if (topLevelPayload && !TOP_LEVEL_VARIABLE_ROOTS.has(String(root))) payload.add([root, ...rest].join('.'));
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
        replyCallback: step.replyCallback ?? {},
        variants: [],
      };
    }),
    _organizationId: workflow._organizationId,
    _creatorId: workflow.updatedBy?._id ?? '',
    _environmentId: workflow._environmentId,
    triggers: [{ type: 'event', identifier: workflow.workflowId, ...triggerVariables(workflow) }],
    _notificationGroupId: notificationGroupIdOf(workflow._environmentId),
    deleted: false,
    deletedAt: null,
    deletedBy: null,
  };
}

export interface V1Workflow extends EmbeddedWorkflow {
  notificationGroup: NotificationGroup;
  origin: Origin;
  data?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A workflow as `/v1/notification-templates` answers it (the reference's WorkflowResponse). */
export function toV1Workflow(workflow: StoredWorkflow): V1Workflow {
  return {
    ...toEmbeddedWorkflow(workflow),
    notificationGroup: notificationGroupOf({ organizationId: workflow._organizationId, environmentId: workflow._environmentId }),
    origin: workflow.origin,
    ...(workflow.data !== undefined && { data: workflow.data }),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
  };
}
