import { tableName } from '../../config.ts';
import type { Channel } from '../../integrations/providers.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import { newId } from '../../ids.ts';
import type { StoredMessage } from '../../messages/model.ts';
import { messageItem } from '../../messages/repository.ts';
import type { JobContext } from '../decision.ts';
import type { TransactItem } from '../notification-store.ts';

// The message a channel step records, and the transaction entry that creates it exactly once
// (its id is new, and the job's write in the same transaction is conditioned on the job's
// version, so a repeated run cannot add a second one).

export function newMessage(
  context: JobContext,
  channel: Channel,
  integration: Pick<StoredIntegration, 'providerId'>,
  fields: Partial<StoredMessage>,
): StoredMessage {
  const { notification, job, step, now } = context;
  const at = now.toISOString();
  return {
    _id: newId(now.getTime()),
    _organizationId: notification._organizationId,
    _environmentId: notification._environmentId,
    _notificationId: notification._id,
    _subscriberId: notification._subscriberId,
    subscriberId: notification.subscriberId,
    _templateId: notification._templateId,
    templateIdentifier: notification.templateIdentifier,
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
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

export function putMessage(message: StoredMessage): TransactItem {
  return { Put: { TableName: tableName(), Item: messageItem(message), ConditionExpression: 'attribute_not_exists(pk)' } };
}
