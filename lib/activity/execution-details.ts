import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { StoredNotification } from '../pipeline/model.ts';
import { findNotificationById } from '../pipeline/notification-store.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import type { ExecutionDetailsQuery, ExecutionDetailV1 } from './execution-details-schemas.ts';

// The execution details of a notification's jobs, as the reference's GET /v1/execution-details
// lists them: every detail of every job, oldest first, each naming its job, notification,
// workflow and subscriber. They live inside the stored notification (docs/data-model.md), so this
// is one more view of what the activity feed shows.

/** 404 for an unknown subscriber; a notification that is not this subscriber's has no details. */
export async function getExecutionDetails(scope: EnvScope, query: ExecutionDetailsQuery): Promise<ExecutionDetailV1[]> {
  const subscriber = await getSubscriber(scope, query.subscriberId);
  if (!subscriber) throw new NotFoundError(`Subscriber not found for id ${query.subscriberId}`);
  const found = isId(query.notificationId) ? await findNotificationById(scope, query.notificationId) : undefined;
  // The subscriber's own notification: one deleted and made again under the same id is another.
  if (!found || found.notification._subscriberId !== subscriber._id) return [];
  return executionDetailsOf(found.notification);
}

function executionDetailsOf(n: StoredNotification): ExecutionDetailV1[] {
  const details = n.jobs.flatMap((job) =>
    job.executionDetails.map((d): ExecutionDetailV1 => {
      // The provider the detail names, else its job's (when the job names one).
      const providerId = d.providerId ?? job.providerId ?? undefined;
      return {
        _id: d._id,
        _organizationId: n._organizationId,
        _environmentId: n._environmentId,
        _jobId: job._id,
        _notificationId: n._id,
        _notificationTemplateId: n._templateId,
        _subscriberId: n._subscriberId,
        ...(d.messageId !== undefined && { _messageId: d.messageId }),
        ...(providerId !== undefined && { providerId }),
        transactionId: n.transactionId,
        channel: job.type,
        detail: d.detail,
        source: d.source,
        status: d.status,
        isTest: d.isTest,
        isRetry: d.isRetry,
        ...(d.raw !== undefined && { raw: d.raw }),
        createdAt: d.createdAt,
      };
    }),
  );
  // Oldest first, as they were recorded; ids break ties within a millisecond.
  return details.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id));
}
