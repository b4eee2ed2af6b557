import type { StoredMessage } from '../messages/model.ts';
import { getSubscriberWithChoices } from '../preferences/repository.ts';
import { resolveGlobalPreference, resolveWorkflowPreference } from '../preferences/resolve.ts';
import { globalPreferenceItem, workflowPreferenceItem } from '../inbox/preferences-view.ts';
import { workflowOfPreferenceSortKey } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { viewContext } from '../workflows/environment-channels.ts';
import { getWorkflowByDbId, listWorkflows, workflowFromItem } from '../workflows/repository.ts';
import { toWorkflowResponse } from '../workflows/view.ts';
import type { WebhookEventType } from './event-types.ts';
import type { StoredChange } from '../store/stream-change.ts';
import { sourceOf } from './derive.ts';

// The `data` of an event, as the reference shapes it (its webhooks.const.ts): a message event's
// `{object}` (the message's webhook fields, with its subscriber), `message.failed` adds `error`;
// a workflow's `{object}` as the v2 API shows it, `previousObject` too when it was updated or
// published; a preference's `{object}` as the inbox shows it, with the subscriber's id.

/** The fields of a message its webhook events carry (the reference's MessageWebhookResponseDto). */
const MESSAGE_FIELDS = [
  '_id',
  '_templateId',
  '_environmentId',
  '_organizationId',
  '_notificationId',
  '_subscriberId',
  'subscriberId',
  'templateIdentifier',
  'createdAt',
  'updatedAt',
  'archivedAt',
  'archived',
  'transactionId',
  'channel',
  'seen',
  'read',
  'snoozedUntil',
  'deliveredAt',
  'providerId',
  'lastSeenDate',
  'firstSeenDate',
  'lastReadDate',
  'status',
  'errorId',
  'errorText',
  'stepId',
  'contextKeys',
  'deliveryStatus',
  'deliveryStatusAt',
  'opened',
  'clicked',
  'clickCount',
  'lastClickedAt',
] as const;

async function messageData(type: WebhookEventType, message: StoredMessage, subscriberOf: SubscriberReader) {
  const object: Record<string, unknown> = {};
  for (const field of MESSAGE_FIELDS) if (message[field] !== undefined) object[field] = message[field];
  if (message.identifier !== undefined) object.providerResponseId = message.identifier;
  object.subscriber = (await subscriberOf(message.subscriberId)) ?? null;
  const clicked = type === 'message.link_clicked' || type === 'message.link_reclicked';
  return {
    object,
    ...(type === 'message.failed' && { error: { message: message.errorText ?? 'Send failed' } }),
    // The link of this click (each click's write stores it: the image is this click's).
    ...(clicked && message.lastClickedUrl !== undefined && { link: { url: message.lastClickedUrl } }),
  };
}

async function workflowData(scope: EnvScope, type: WebhookEventType, change: StoredChange) {
  const view = async (item: Record<string, unknown>) => {
    const { version: _v, ...workflow } = workflowFromItem(item);
    return toWorkflowResponse(workflow, await viewContext(scope, [workflow]));
  };
  const object = await view((change.after ?? change.before)!);
  const withPrevious = (type === 'workflow.updated' || type === 'workflow.published') && change.before;
  return { object, ...(withPrevious && { previousObject: await view(change.before!) }) };
}

async function preferenceData(scope: EnvScope, change: StoredChange, subscriberId: string) {
  const { choices } = await getSubscriberWithChoices(scope, subscriberId);
  const workflowDbId = workflowOfPreferenceSortKey(change.sk);
  if (!workflowDbId) return { object: globalPreferenceItem(resolveGlobalPreference(await listWorkflows(scope), choices)), subscriberId };
  const workflow = await getWorkflowByDbId(scope, workflowDbId);
  // The workflow is gone: its preference is still named, without the workflow's details.
  const object = workflow
    ? workflowPreferenceItem(resolveWorkflowPreference(workflow, choices))
    : { level: 'template', workflow: { id: workflowDbId } };
  return { object, subscriberId };
}

/** How a message event's subscriber is read (the emitter reads each once per batch). */
type SubscriberReader = (subscriberId: string) => Promise<Subscriber | undefined>;

/** The event's `data`, read when the event is sent to at least one endpoint. */
export function eventData(
  scope: EnvScope,
  type: WebhookEventType,
  change: StoredChange,
  subscriberIdOfKey: string | undefined,
  subscriberOf: SubscriberReader,
): Promise<unknown> {
  switch (sourceOf(change.sk)) {
    case 'message':
      return messageData(type, (change.after ?? change.before) as unknown as StoredMessage, subscriberOf);
    case 'workflow':
      return workflowData(scope, type, change);
    default:
      return preferenceData(scope, change, subscriberIdOfKey ?? '');
  }
}
