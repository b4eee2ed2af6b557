import { idOf } from '../ids.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { SERVICE_PROVIDER_ID } from '../integrations/catalogue.ts';
import { CHANNEL_STEP_TYPES, isCritical, type Severity, type StepType, type StoredWorkflow } from '../workflows/model.ts';
import { DETAILS, detail } from './details.ts';
import type {
  NotificationTopic,
  Recipient,
  StoredJob,
  StoredNotification,
  SubscriberSummary,
  TenantSnapshot,
  TriggerEvent,
} from './model.ts';

// The notification a trigger makes for one subscriber: one job per active step, in order. The
// first job is queued at once (its "Step queued" detail is written with the notification); the
// others wait for their predecessor. Its ids are made from the event and the subscriber, not
// drawn: a fan-out run again builds the same notification, so a message an earlier run wrote for
// its first job before storing it (lib/pipeline/fan-out.ts) is found again, under the same ids.

const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low', 'none'];

export function summaryOf(s: Subscriber): SubscriberSummary {
  return {
    _id: s._id,
    subscriberId: s.subscriberId,
    ...(s.firstName != null && { firstName: s.firstName }),
    ...(s.lastName != null && { lastName: s.lastName }),
    ...(s.email != null && { email: s.email }),
    ...(s.phone != null && { phone: s.phone }),
  };
}

export function buildNotification(input: {
  event: TriggerEvent;
  workflow: StoredWorkflow;
  subscriber: Subscriber;
  to: Recipient;
  topics: NotificationTopic[];
  actor?: Subscriber;
  /** The stored tenant the trigger names, unless too large to keep (tenant-snapshot.ts `keptSnapshot`). */
  tenant?: TenantSnapshot;
  /** The provider each channel step would use now; the others name the service (docs/architecture.md, "The provider a job names"). */
  providers: Partial<Record<StepType, string>>;
  now: Date;
}): StoredNotification {
  const { event, workflow, subscriber, now } = input;
  const at = now.toISOString();
  const notificationId = idOf(`${event._environmentId}:${event.transactionId}:${subscriber.subscriberId}`, now.getTime());
  const steps = workflow.steps.filter((s) => s.active);
  const jobs: StoredJob[] = steps.map((step, index) => ({
    _id: idOf(`${notificationId}:${index}`, now.getTime()),
    index,
    stepDbId: step._id,
    stepId: step.stepId,
    type: step.type,
    status: index === 0 ? 'queued' : 'pending',
    providerId: input.providers[step.type] ?? SERVICE_PROVIDER_ID,
    executionDetails: index === 0 ? [detail(DETAILS.stepQueued, 'Pending', {}, now)] : [],
    createdAt: at,
    updatedAt: at,
  }));
  const overrideSeverity = event.overrides.severity;
  const severity = SEVERITIES.includes(overrideSeverity as Severity) ? (overrideSeverity as Severity) : workflow.severity;
  return {
    _id: notificationId,
    _organizationId: event._organizationId,
    _environmentId: event._environmentId,
    _templateId: workflow._id,
    templateIdentifier: workflow.workflowId,
    transactionId: event.transactionId,
    _subscriberId: subscriber._id,
    subscriberId: subscriber.subscriberId,
    subscriber: summaryOf(subscriber),
    topics: input.topics,
    channels: [...new Set(steps.map((s) => s.type))],
    payload: event.payload,
    overrides: event.overrides,
    to: input.to,
    tags: workflow.tags,
    controls: {},
    severity,
    critical: isCritical(workflow),
    contextKeys: event.contextKeys,
    ...(event.context && { context: event.context }),
    // The trigger's name and data for the tenant are in the stored tenant (and its snapshot) by now.
    ...(event.tenant && { tenant: { identifier: event.tenant.identifier } }),
    ...(input.tenant && { tenantSnapshot: input.tenant }),
    ...(input.actor && { actor: summaryOf(input.actor) }),
    ...(event.notificationShards !== undefined && { notificationShards: event.notificationShards }),
    ...(event.bridgeUrl !== undefined && { bridgeUrl: event.bridgeUrl }),
    jobs,
    createdAt: at,
    updatedAt: at,
  };
}

export const isChannelStep = (type: string): boolean => (CHANNEL_STEP_TYPES as readonly string[]).includes(type);
