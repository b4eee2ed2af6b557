import type { Channel } from '../../integrations/catalogue.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import type { StoredMessage } from '../../messages/model.ts';
import type { JobContext } from '../decision.ts';
import { messageStampOf } from '../message-id.ts';

// The message a channel step records. Its id is the job's (message-id.ts): the runner creates it
// before it records the job, and a repeated run of the job finds it instead of adding a second.
// Its createdAt is the instant its id was made from, so lists in id order are in createdAt order;
// when it was delivered is `deliveredAt`.

export function newMessage(
  context: JobContext,
  channel: Channel,
  integration: Pick<StoredIntegration, 'providerId'>,
  fields: Partial<StoredMessage>,
): StoredMessage {
  const { notification, job, step, workflow, now } = context;
  const at = now.toISOString();
  const { _id, createdAt } = messageStampOf(job);
  return {
    _id,
    _organizationId: notification._organizationId,
    _environmentId: notification._environmentId,
    _notificationId: notification._id,
    _subscriberId: notification._subscriberId,
    subscriberId: notification.subscriberId,
    _templateId: notification._templateId,
    templateIdentifier: notification.templateIdentifier,
    workflowName: workflow.name,
    _messageTemplateId: step._id,
    stepId: step.stepId,
    _jobId: job._id,
    transactionId: notification.transactionId,
    channel,
    providerId: integration.providerId,
    content: '',
    cta: {},
    payload: notification.payload,
    overrides: notification.overrides,
    tags: notification.tags,
    severity: notification.severity,
    critical: notification.critical,
    contextKeys: notification.contextKeys,
    status: 'sent',
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [at],
    _feedId: null,
    createdAt,
    updatedAt: at,
    ...fields,
  };
}
