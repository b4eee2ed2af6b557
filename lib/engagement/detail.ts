import { logger } from '../logger.ts';
import type { StoredMessage } from '../messages/model.ts';
import { detail } from '../pipeline/details.ts';
import { findNotificationById, saveNotification } from '../pipeline/notification-store.ts';
import type { EnvScope } from '../scope.ts';
import { StaleWriteError } from '../store/stale-write.ts';

// An open or click as an execution detail of the job that sent the message, so the activity
// feed shows it beside the send. The notification item holds every detail of its jobs and has a
// size limit, so a message records its first MAX_CLICK_DETAILS clicks there (the count goes on
// in the message's `clickCount`). The engagement itself is already recorded on the message when
// this runs: a detail that cannot be written is logged, never a failed click.

export const MAX_CLICK_DETAILS = 10;
const ATTEMPTS = 5;

export const ENGAGEMENT_DETAILS = {
  clicked: 'Link clicked by the recipient',
  opened: 'Email opened by the recipient',
} as const;

export async function addEngagementDetail(scope: EnvScope, message: StoredMessage, text: string, raw: unknown, at: Date): Promise<void> {
  try {
    for (let attempt = 1; ; attempt++) {
      const stored = await findNotificationById(scope, message._notificationId, { consistent: true });
      const job = stored?.notification.jobs.find((j) => j._id === message._jobId);
      if (!stored || !job) return;
      const added = detail(text, 'Success', { providerId: message.providerId, messageId: message._id, raw }, at);
      const jobs = stored.notification.jobs.map((j) =>
        j._id === job._id ? { ...j, executionDetails: [...j.executionDetails, added] } : j,
      );
      try {
        await saveNotification({ ...stored.notification, jobs }, stored.version);
        return;
      } catch (error) {
        if (!(error instanceof StaleWriteError) || attempt >= ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    logger.warn('Engagement detail not recorded', { messageId: message._id, error: error as Error });
  }
}
