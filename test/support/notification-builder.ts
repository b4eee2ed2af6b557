import { newId } from '#lib/ids.ts';
import type { ExecutionDetail, StoredJob, StoredNotification } from '#lib/pipeline/model.ts';
import { createNotification } from '#lib/pipeline/notification-store.ts';
import type { EnvScope } from '#lib/scope.ts';
import type { StepType, StoredWorkflow } from '#lib/workflows/model.ts';

// Stored notifications as the pipeline writes them (one per event and subscriber, its jobs and
// their execution details inside), for tests of what reads them (the activity feed) without
// running the pipeline. `at` places a notification in time: its ids are made from it, so it
// lands in that day's activity partition.

export interface NotificationSeed extends Partial<Omit<StoredNotification, 'jobs'>> {
  /** When it was created (default now). */
  at?: Date | number;
  /** The workflow it came from: its _id, identifier, severity and active steps become the jobs. */
  workflow?: Pick<StoredWorkflow, '_id' | 'workflowId' | 'steps'> & Partial<StoredWorkflow>;
  /** Without a workflow: the step types of the jobs (default one in_app step). */
  stepTypes?: StepType[];
  /** The subscriber (external and internal id); default a fresh one. */
  subscriber?: { subscriberId: string; _id: string; email?: string | null; firstName?: string | null };
  jobs?: StoredJob[];
}

function executionDetail(text: string, status: ExecutionDetail['status'], at: Date, extra: Partial<ExecutionDetail> = {}): ExecutionDetail {
  return {
    _id: newId(at.getTime()),
    createdAt: at.toISOString(),
    detail: text,
    status,
    source: 'Internal',
    isRetry: false,
    isTest: false,
    raw: null,
    ...extra,
  };
}

/** A completed job for a step, with the details a delivered step leaves. */
export function buildJob(step: { _id: string; stepId: string; type: StepType }, index: number, at: Date): StoredJob {
  const iso = at.toISOString();
  const later = new Date(at.getTime() + 1000);
  const delivers = ['in_app', 'email', 'sms', 'chat', 'push'].includes(step.type);
  const providerId = delivers && step.type !== 'in_app' ? 'sendgrid' : 'svc';
  const details = [executionDetail('Step queued', 'Pending', at)];
  if (delivers) {
    details.push(
      // Stored out of order on purpose: the feed sorts details by time.
      executionDetail('Message sent', 'Success', later, { providerId, raw: '{"ok":true}', messageId: newId(at.getTime()) }),
      executionDetail('Message created', 'Pending', at, { providerId }),
    );
  }
  return {
    _id: newId(at.getTime()),
    index,
    stepDbId: step._id,
    stepId: step.stepId,
    type: step.type,
    status: 'completed',
    providerId,
    executionDetails: details,
    ...(step.type === 'digest' && {
      digest: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId', digestValue: 'p1', events: [{ n: 1 }] },
    }),
    createdAt: iso,
    updatedAt: iso,
  };
}

export function buildNotification(scope: EnvScope, seed: NotificationSeed = {}): StoredNotification {
  const { at = Date.now(), workflow, stepTypes = ['in_app'], subscriber: who, jobs: givenJobs, ...fields } = seed;
  const time = new Date(at);
  const iso = time.toISOString();
  const subscriber = who ?? { subscriberId: `sub-${newId()}`, _id: newId() };
  const steps = workflow
    ? workflow.steps.filter((s) => s.active)
    : stepTypes.map((type, i) => ({ _id: newId(time.getTime()), stepId: `step-${i}`, type }));
  const jobs = givenJobs ?? steps.map((step, index) => buildJob(step, index, time));
  return {
    _id: newId(time.getTime()),
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    _templateId: workflow?._id ?? newId(),
    templateIdentifier: workflow?.workflowId ?? 'wf',
    transactionId: `txn-${newId()}`,
    _subscriberId: subscriber._id,
    subscriberId: subscriber.subscriberId,
    subscriber: {
      _id: subscriber._id,
      subscriberId: subscriber.subscriberId,
      ...(subscriber.email && { email: subscriber.email }),
      ...(subscriber.firstName && { firstName: subscriber.firstName }),
    },
    topics: [],
    channels: [...new Set([...jobs].sort((x, y) => x.index - y.index).map((j) => j.type))],
    payload: { hello: 'world' },
    overrides: {},
    to: subscriber.subscriberId,
    tags: workflow?.tags ?? [],
    controls: {},
    severity: workflow?.severity ?? 'none',
    critical: false,
    contextKeys: [],
    jobs,
    createdAt: iso,
    updatedAt: iso,
    ...fields,
  };
}

/** Builds and stores a notification, as the pipeline's fan-out would. */
export async function seedNotification(scope: EnvScope, seed: NotificationSeed = {}): Promise<StoredNotification> {
  const notification = buildNotification(scope, seed);
  await createNotification(notification);
  return notification;
}
