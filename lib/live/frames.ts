import type { UnreadCounts } from '../inbox/counts.ts';
import type { RawMessage } from '../inbox/message-views.ts';

// The frames a socket receives: JSON text frames `{"event", "data"}`, as the reference's cloud
// socket sends them to `@novu/js` in PartySocket mode (`socketOptions.socketType: 'cloud'`).
// The client reads `data.message` (the raw message, which it maps itself), `data.counts` and
// `data.unseenCount`. `hasMore` says the count stopped at its cap; the client ignores it, and
// our counts stop at MAX_INBOX_COUNT without knowing whether more follow.

export const receivedFrame = (message: RawMessage): string => JSON.stringify({ event: 'notification_received', data: { message } });

export const unreadFrame = (counts: UnreadCounts): string =>
  JSON.stringify({
    event: 'unread_count_changed',
    data: { unreadCount: counts.total, counts: { total: counts.total, severity: counts.severity }, hasMore: false },
  });

export const unseenFrame = (unseenCount: number): string =>
  JSON.stringify({ event: 'unseen_count_changed', data: { unseenCount, hasMore: false } });
