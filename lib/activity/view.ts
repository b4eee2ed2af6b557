import { SERVICE_PROVIDER_ID } from '../integrations/catalogue.ts';
import type { DigestMetadata, ExecutionDetail, StoredJob, StoredNotification } from '../pipeline/model.ts';
import { batchGet } from '../store/batch.ts';
import { keys } from '../store/keys.ts';
import { isExpired } from '../store/retention.ts';
import type { EnvScope } from '../scope.ts';
import type { StoredWorkflow } from '../workflows/model.ts';
import { getWorkflowByDbId } from '../workflows/repository.ts';
import { toEmbeddedWorkflow, type EmbeddedWorkflow } from '../workflows/v1-view.ts';
import type { ActivityJob, ActivityMessage, ActivityNotification, ActivityStep } from './schemas.ts';

// Stored notifications as the activity feed shows them, as the reference does: the notification
// with its jobs, each job with its execution details and the step it ran, plus the subscriber and
// the workflow as they are now (absent once deleted). A page's subscribers are read with one
// BatchGet and each workflow once; steps take the older (v1) shape messages embed, so the two
// views of a step agree.

type SubscriberView = NonNullable<ActivityNotification['subscriber']>;
type TemplateView = NonNullable<ActivityNotification['template']>;

const SUBSCRIBER_FIELDS = ['_id', 'subscriberId', 'email', 'firstName', 'lastName', 'phone', 'deleted'];

interface WorkflowView {
  template: TemplateView;
  steps: Map<string, ActivityStep>;
}

export async function toActivityNotifications(scope: EnvScope, notifications: StoredNotification[]): Promise<ActivityNotification[]> {
  const [subscribers, workflows, messages] = await Promise.all([
    currentSubscribers(scope, notifications),
    currentWorkflows(scope, notifications),
    currentMessages(scope, notifications),
  ]);
  return notifications.map((n) => {
    const subscriber = subscribers.get(n.subscriberId);
    const workflow = workflows.get(n._templateId);
    return {
      _id: n._id,
      _environmentId: n._environmentId,
      _organizationId: n._organizationId,
      _subscriberId: n._subscriberId,
      _templateId: n._templateId,
      ...(n._digestedNotificationId !== undefined && { _digestedNotificationId: n._digestedNotificationId }),
      transactionId: n.transactionId,
      topics: n.topics,
      channels: n.channels,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
      tags: n.tags,
      controls: n.controls,
      payload: n.payload,
      to: n.to,
      // The subscriber of this notification: one deleted and created again is another subscriber.
      ...(subscriber && subscriber._id === n._subscriberId && { subscriber }),
      ...(workflow && { template: workflow.template }),
      jobs: [...n.jobs].sort((a, b) => a.index - b.index).map((job) => toActivityJob(n, job, workflow, messages)),
      severity: n.severity ?? 'none',
      critical: n.critical ?? false,
      contextKeys: n.contextKeys ?? [],
    };
  });
}

async function currentSubscribers(scope: EnvScope, notifications: StoredNotification[]): Promise<Map<string, SubscriberView>> {
  const subscriberIds = [...new Set(notifications.map((n) => n.subscriberId))];
  const items =
    subscriberIds.length === 0
      ? []
      : await batchGet(
          subscriberIds.map((id) => keys.subscriber(scope, id)),
          SUBSCRIBER_FIELDS,
        );
  const found = new Map<string, SubscriberView>();
  for (const item of items) {
    if (item.deleted === true) continue;
    const view: SubscriberView = { _id: item._id as string, subscriberId: item.subscriberId as string };
    for (const field of ['email', 'firstName', 'lastName', 'phone'] as const) {
      if (item[field] !== undefined) view[field] = item[field] as string | null;
    }
    found.set(view.subscriberId, view);
  }
  return found;
}

async function currentWorkflows(scope: EnvScope, notifications: StoredNotification[]): Promise<Map<string, WorkflowView>> {
  const found = new Map<string, WorkflowView>();
  await Promise.all(
    [...new Set(notifications.map((n) => n._templateId))].map(async (workflowDbId) => {
      const workflow = await getWorkflowByDbId(scope, workflowDbId);
      if (workflow) found.set(workflowDbId, workflowView(workflow));
    }),
  );
  return found;
}

function workflowView(workflow: StoredWorkflow): WorkflowView {
  const embedded: EmbeddedWorkflow = toEmbeddedWorkflow(workflow);
  const steps = new Map<string, ActivityStep>();
  for (const step of embedded.steps) {
    steps.set(step._id, {
      _id: step._id,
      active: step.active,
      filters: step.filters,
      _templateId: step._templateId,
      name: step.name,
      _parentId: step._parentId,
      ...(step.metadata && { metadata: step.metadata }),
      replyCallback: step.replyCallback,
      variants: [],
    });
  }
  return {
    template: { _id: workflow._id, name: workflow.name, origin: workflow.origin, triggers: embedded.triggers },
    steps,
  };
}

/** What a job shows of its message (the engagement the message records, as it is now). */
const MESSAGE_FIELDS = [
  '_id',
  'channel',
  'status',
  'seen',
  'read',
  'deliveryStatus',
  'deliveryStatusAt',
  'opened',
  'clicked',
  'clickCount',
];

/** The messages the page's jobs sent: one BatchGet (by key: the notification's subscriber and the job's message id). */
async function currentMessages(scope: EnvScope, notifications: StoredNotification[]): Promise<Map<string, ActivityMessage>> {
  const messageKeys = notifications.flatMap((n) =>
    n.jobs.flatMap((job) => (job.messageId ? [keys.message(scope, n.subscriberId, job.messageId)] : [])),
  );
  const items = messageKeys.length === 0 ? [] : await batchGet(messageKeys, MESSAGE_FIELDS);
  const kept = items.filter((item) => !isExpired('message', item._id as string));
  return new Map(kept.map((item) => [item._id as string, item as unknown as ActivityMessage]));
}

function toActivityJob(
  n: StoredNotification,
  job: StoredJob,
  workflow: WorkflowView | undefined,
  messages: Map<string, ActivityMessage>,
): ActivityJob {
  // A step removed from its workflow (or a deleted workflow) still shows which step ran.
  const step = workflow?.steps.get(job.stepDbId) ?? {
    _id: job.stepDbId,
    active: true,
    filters: [],
    _templateId: job.stepDbId,
    name: job.stepId,
    _parentId: null,
  };
  return {
    _id: job._id,
    type: job.type,
    ...(job.digest && { digest: digestView(job.digest) }),
    executionDetails: [...job.executionDetails].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(detailView),
    step,
    overrides: n.overrides,
    payload: n.payload,
    providerId: job.providerId ?? SERVICE_PROVIDER_ID,
    status: job.status,
    updatedAt: job.updatedAt,
    ...(job.scheduleExtensionsCount !== undefined && { scheduleExtensionsCount: job.scheduleExtensionsCount }),
    ...(n.tenant && { tenant: tenantView(n) }),
    ...(job.messageId && messages.has(job.messageId) && { message: messages.get(job.messageId)! }),
  };
}

/** The stored tenant its templates saw when the notification kept it, else what the notification holds of it. */
function tenantView(n: StoredNotification): ActivityJob['tenant'] {
  const { identifier, name, data } = n.tenantSnapshot ?? n.tenant!;
  return { identifier, ...(name !== undefined && { name }), ...(data !== undefined && { data }) };
}

/** What the interface shows of a detail (the message id stays internal). */
function detailView(d: ExecutionDetail): ActivityJob['executionDetails'][number] {
  return {
    _id: d._id,
    createdAt: d.createdAt,
    detail: d.detail,
    status: d.status,
    source: d.source,
    isRetry: d.isRetry,
    isTest: d.isTest,
    ...(d.providerId !== undefined && { providerId: d.providerId }),
    ...(d.raw !== undefined && { raw: d.raw }),
  };
}

/** DigestMetadata of the interface (the digest value the window was keyed by stays internal). */
function digestView(digest: DigestMetadata): NonNullable<ActivityJob['digest']> {
  const { digestValue: _value, ...shown } = digest;
  return shown;
}
