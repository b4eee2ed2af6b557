import { newId } from '#lib/ids.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { messageItem } from '#lib/messages/repository.ts';
import { batchPut } from '#lib/store/batch.ts';
import type { EnvScope } from '#lib/scope.ts';

// Messages as the pipeline stores them (messageItem), written straight into the table, so the
// inbox endpoints are tested without running workflows. Ids are made in call order, and ids sort
// by creation, so the last message built is the newest.

export interface MessageRecipient {
  subscriberId: string;
  /** The subscriber's internal id. */
  _id: string;
}

export function buildMessage(scope: EnvScope, recipient: MessageRecipient, extra: Partial<StoredMessage> = {}): StoredMessage {
  const _id = newId();
  const now = new Date().toISOString();
  return {
    _id,
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    _notificationId: newId(),
    _subscriberId: recipient._id,
    subscriberId: recipient.subscriberId,
    _templateId: newId(),
    templateIdentifier: 'welcome',
    _messageTemplateId: newId(),
    stepId: 'inbox',
    _jobId: newId(),
    transactionId: `txn-${_id}`,
    channel: 'in_app',
    providerId: 'svc',
    content: `Message ${_id}`,
    cta: {},
    payload: {},
    overrides: {},
    tags: [],
    severity: 'none',
    critical: false,
    contextKeys: [],
    status: 'sent',
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [now],
    _feedId: null,
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

/** Stores the messages as the pipeline would (batched; the order of the list is kept in the ids). */
export async function seedMessages(messages: StoredMessage[]): Promise<StoredMessage[]> {
  await batchPut(messages.map(messageItem));
  return messages;
}

/** `count` messages for one recipient, oldest first, each with `extra(i)` applied. */
export function seedMessagesFor(
  scope: EnvScope,
  recipient: MessageRecipient,
  count: number,
  extra: (i: number) => Partial<StoredMessage> = () => ({}),
): Promise<StoredMessage[]> {
  return seedMessages(Array.from({ length: count }, (_, i) => buildMessage(scope, recipient, extra(i))));
}
