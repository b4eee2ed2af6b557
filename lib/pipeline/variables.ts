import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { digestEventsOf } from './steps/digest.ts';
import type { StoredJob, StoredNotification } from './model.ts';
import { contextVariable } from './context-variable.ts';
import { tenantVariable } from './tenant-snapshot.ts';

// The variables templates and conditions see: {subscriber, payload, step, steps, tenant, actor, context,
// workflow, env}. `env` is the environment's variables (lib/environment-variables), given only to
// steps whose templates name it.
// `step` carries the events of the digest that ran before this job, if any (`step.events`,
// `step.total_count`, `step.digest`); `tenant` is the stored tenant the trigger named
// (tenant-snapshot.ts); `context` the stored contexts it named (context-variable.ts). Templates
// of v1 workflows also see the payload's values at the top level (`{{orderId}}`), as the
// reference renders them; the names above win over those.

export async function templateVariables(
  scope: EnvScope,
  notification: StoredNotification,
  job: StoredJob,
  subscriber: Subscriber | undefined,
  options: { payloadAtTopLevel?: boolean; env?: Record<string, string> } = {},
): Promise<Record<string, unknown>> {
  // A look-back digest skipped for the first event still digested that one event.
  const digests = notification.jobs
    .slice(0, job.index)
    .filter((j) => j.type === 'digest' && (j.status === 'completed' || (j.status === 'skipped' && j.digest !== undefined)));
  // v2 templates name a digest by its step (`steps.<stepId>.events[i].payload`, `eventCount`);
  // v1-style ones use the latest digest as `step.events` (payloads) and `step.total_count`.
  const steps: Record<string, { events: { payload: Record<string, unknown> }[]; eventCount: number }> = {};
  let events: Record<string, unknown>[] = [];
  for (const digestJob of digests) {
    events = await digestEventsOf(scope, notification, digestJob);
    steps[digestJob.stepId] = { events: events.map((payload) => ({ payload })), eventCount: events.length };
  }
  const digestJob = digests.at(-1);
  return {
    ...(options.payloadAtTopLevel && notification.payload),
    subscriber: { ...(subscriber ?? notification.subscriber), isOnline: subscriber?.isOnline ?? false },
    payload: notification.payload,
    step: { digest: Boolean(digestJob), events, total_count: events.length },
    steps,
    tenant: await tenantVariable(scope, notification),
    actor: notification.actor ?? {},
    context: await contextVariable(scope, notification),
    workflow: {
      workflowId: notification.templateIdentifier,
      _id: notification._templateId,
      tags: notification.tags,
      severity: notification.severity,
    },
    env: options.env ?? {},
  };
}
