import type { MessageButton, StoredMessage } from '../messages/model.ts';
import type { Subscriber } from '../subscribers/model.ts';

// The two shapes an inbox message leaves in. The live socket sends the message as the
// reference's database holds it (`notification_received` carries that raw entity, which the
// client maps itself); the REST routes send it already mapped, the InboxNotification of the
// client's contract. One function each, the REST one reading only what the raw one holds, so
// the two cannot disagree.

type Profile = Pick<
  Subscriber,
  '_id' | 'subscriberId' | 'firstName' | 'lastName' | 'avatar' | 'locale' | 'data' | 'timezone' | 'email' | 'phone'
>;

/** The message as the socket sends it (the reference's MessageEntity, `cta` always an object). */
export function rawMessage(m: StoredMessage, subscriber: Profile | undefined) {
  return {
    _id: m._id,
    _organizationId: m._organizationId,
    _environmentId: m._environmentId,
    _notificationId: m._notificationId,
    _subscriberId: m._subscriberId,
    _templateId: m._templateId,
    templateIdentifier: m.templateIdentifier,
    transactionId: m.transactionId,
    channel: m.channel,
    content: m.content,
    subject: m.subject,
    avatar: m.avatar,
    cta: m.cta ?? {},
    data: m.data,
    tags: m.tags,
    severity: m.severity,
    read: m.read,
    seen: m.seen,
    archived: m.archived,
    snoozedUntil: m.snoozedUntil ?? null,
    deliveredAt: m.deliveredAt,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    lastReadDate: m.lastReadDate ?? null,
    lastSeenDate: m.lastSeenDate ?? null,
    firstSeenDate: m.firstSeenDate ?? null,
    archivedAt: m.archivedAt ?? null,
    contextKeys: m.contextKeys,
    // Ours (docs/engagement.md): tracked opens and clicks, absent until they happen.
    ...engagementOf(m),
    subscriber: {
      _id: subscriber?._id ?? m._subscriberId,
      subscriberId: subscriber?.subscriberId ?? m.subscriberId,
      firstName: subscriber?.firstName ?? undefined,
      lastName: subscriber?.lastName ?? undefined,
      avatar: subscriber?.avatar ?? undefined,
      locale: subscriber?.locale ?? undefined,
      data: subscriber?.data ?? undefined,
      timezone: subscriber?.timezone ?? undefined,
      email: subscriber?.email ?? undefined,
      phone: subscriber?.phone ?? undefined,
    },
    workflow: {
      id: m._templateId,
      identifier: m.templateIdentifier,
      name: m.workflowName ?? m.templateIdentifier,
      critical: m.critical,
      tags: m.tags,
      severity: m.severity,
    },
  };
}

export type RawMessage = ReturnType<typeof rawMessage>;

/** The message as the inbox REST routes answer it (InboxNotification). */
export function inboxNotification(m: StoredMessage, subscriber: Profile | undefined) {
  const raw = rawMessage(m, subscriber);
  const buttons = raw.cta.action?.buttons ?? [];
  const result = raw.cta.action?.result?.type;
  const done = raw.cta.action?.status === 'done';
  const action = (type: MessageButton['type']) => {
    const button = buttons.find((b) => b.type === type);
    return (
      button && {
        label: button.content,
        isCompleted: done && result === type,
        ...(button.url && { redirect: { url: button.url, ...(button.target && { target: button.target }) } }),
      }
    );
  };
  return {
    id: raw._id,
    transactionId: raw.transactionId,
    subject: raw.subject,
    body: raw.content,
    to: {
      id: raw.subscriber._id,
      subscriberId: raw.subscriber.subscriberId,
      firstName: raw.subscriber.firstName,
      lastName: raw.subscriber.lastName,
      avatar: raw.subscriber.avatar,
    },
    isRead: raw.read,
    isSeen: raw.seen,
    isArchived: raw.archived,
    isSnoozed: raw.snoozedUntil !== null,
    snoozedUntil: raw.snoozedUntil,
    deliveredAt: raw.deliveredAt,
    createdAt: raw.createdAt,
    readAt: raw.lastReadDate,
    firstSeenAt: raw.firstSeenDate,
    archivedAt: raw.archivedAt,
    avatar: raw.avatar,
    primaryAction: action('primary'),
    secondaryAction: action('secondary'),
    channelType: raw.channel,
    tags: raw.tags,
    data: raw.data,
    redirect: raw.cta.data?.url ? { url: raw.cta.data.url, ...(raw.cta.data.target && { target: raw.cta.data.target }) } : undefined,
    workflow: raw.workflow,
    severity: raw.severity,
    ...engagementOf(m),
  };
}

/** The engagement fields a message has (the same names in every view: GET /v1/messages, the feed, the inbox). */
export function engagementOf(m: Pick<StoredMessage, 'opened' | 'clicked' | 'clickCount'>) {
  return {
    ...(m.opened !== undefined && { opened: m.opened }),
    ...(m.clicked !== undefined && { clicked: m.clicked }),
    ...(m.clickCount !== undefined && { clickCount: m.clickCount }),
  };
}

export type InboxNotification = ReturnType<typeof inboxNotification>;
