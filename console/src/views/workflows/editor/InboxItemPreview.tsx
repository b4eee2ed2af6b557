import { Inbox, Notifications, NovuProvider, useNovu, type Notification, type Subscriber } from '@novu/react';
import { useLayoutEffect, useMemo } from 'react';

// An in-app step's preview as the subscriber's <Inbox /> draws it: @novu/react's own
// notification item (avatar, subject, body, actions), fed the one notification the step preview
// rendered instead of a subscriber's feed. The client is given no subscriber, so it opens no
// session (no request: @novu/js starts one only for a subscriber it does not have yet) and no
// socket (`realtime` off), and its list answers the preview: nothing is read or written, and
// clicks on the item change nothing. Loaded lazily, in the same chunk as the subscriber's inbox.

/** No subscriber: the client's session never starts, so every call it would make waits unsent. */
const NO_SUBSCRIBER = {} as Subscriber;

/** The item alone: the inbox's header (its filters, "mark all as read") has nothing to act on here. */
const APPEARANCE = { elements: { inboxHeader: { display: 'none' } } };

export interface InboxItem {
  subject?: string;
  body: string;
  avatar?: string;
  primaryAction?: { label: string };
  secondaryAction?: { label: string };
}

export default function InboxItemPreview({ item, workflowName }: { item: InboxItem; workflowName: string }) {
  return (
    <div className="inbox-item-preview" data-testid="inbox-item-preview">
      <NovuProvider applicationIdentifier="preview" subscriber={NO_SUBSCRIBER} backendUrl={location.origin} realtime={false}>
        <PreviewList item={item} workflowName={workflowName} />
      </NovuProvider>
    </div>
  );
}

function PreviewList({ item, workflowName }: { item: InboxItem; workflowName: string }) {
  const novu = useNovu();
  const notification = useMemo(() => notificationOf(item, workflowName), [item, workflowName]);
  // The client answered from the preview. A layout effect: it runs after this render is committed
  // and before any passive effect, so before <Inbox /> mounts its item list (a passive effect of
  // @novu/react's), which then asks for the list once.
  useLayoutEffect(() => answerWith(novu, notification), [novu, notification]);
  return (
    // Remounted when the preview changes: the list is read once, when the item list mounts.
    <Inbox key={JSON.stringify(item)} applicationIdentifier="preview" subscriber={NO_SUBSCRIBER} appearance={APPEARANCE}>
      <Notifications />
    </Inbox>
  );
}

/** Makes the client's feed the one notification, with nothing to mark as seen. */
function answerWith(novu: ReturnType<typeof useNovu>, notification: Notification): void {
  novu.notifications.list = (async () => ({
    data: { notifications: [notification], hasMore: false, filter: {} },
  })) as unknown as typeof novu.notifications.list;
  // The inbox marks the items it shows as seen after a second in view, through its client's inbox
  // service (not the notification's own `seen`); the preview has nothing to mark, and no session.
  (novu.notifications as unknown as { _inboxService: { markAsSeen: () => Promise<void> } })._inboxService.markAsSeen = async () =>
    undefined;
}

/** The preview as the inbox's notification; its actions do nothing (a preview has no message to mark). */
function notificationOf(item: InboxItem, workflowName: string): Notification {
  const unchanged = async () => ({ data: notification });
  const action = (value: { label: string } | undefined) =>
    value && typeof value.label === 'string' ? { label: value.label, isCompleted: false } : undefined;
  const primaryAction = action(item.primaryAction);
  const secondaryAction = action(item.secondaryAction);
  const notification = {
    id: 'preview',
    transactionId: 'preview',
    ...(item.subject && { subject: item.subject }),
    body: item.body,
    to: { subscriberId: 'preview' },
    isRead: false,
    isSeen: false,
    isArchived: false,
    isSnoozed: false,
    createdAt: new Date().toISOString(),
    ...(item.avatar && { avatar: item.avatar }),
    ...(primaryAction && { primaryAction }),
    ...(secondaryAction && { secondaryAction }),
    channelType: 'in_app',
    tags: [],
    data: {},
    workflow: { id: 'preview', identifier: 'preview', name: workflowName, critical: false, tags: [], severity: 'none' },
    severity: 'none',
    read: unchanged,
    unread: unchanged,
    seen: unchanged,
    archive: unchanged,
    unarchive: unchanged,
    delete: async () => ({ data: undefined }),
    snooze: unchanged,
    unsnooze: unchanged,
    completePrimary: unchanged,
    completeSecondary: unchanged,
    revertPrimary: unchanged,
    revertSecondary: unchanged,
    on: () => () => undefined,
    off: () => undefined,
  };
  return notification as unknown as Notification;
}
