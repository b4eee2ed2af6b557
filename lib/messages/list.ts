import type { EnvScope } from '../scope.ts';
import { pageOfMessages, type MessageRange } from './repository.ts';
import type { ListMessagesQuery } from './schemas.ts';
import { messageView } from './view.ts';
import type { StoredMessage } from './model.ts';

export interface MessagePageView {
  data: StoredMessage[];
  totalCount: number;
  hasMore: boolean;
  pageSize: number;
  page: number;
}

/**
 * The environment's messages, or one subscriber's, newest first, a numbered page at a time. An
 * unknown subscriberId has no messages, so it gives an empty page rather than a 404.
 */
export async function listMessages(scope: EnvScope, query: ListMessagesQuery): Promise<MessagePageView> {
  const range: MessageRange =
    query.subscriberId === undefined ? { of: 'environment' } : { of: 'subscriber', subscriberId: query.subscriberId };
  const filter = {
    ...(query.channel !== undefined && { channel: query.channel }),
    ...(query.transactionId !== undefined && { transactionIds: query.transactionId }),
  };
  const { messages, totalCount } = await pageOfMessages(scope, range, filter, query.page * query.limit, query.limit);
  return toPageView(messages, totalCount, query.page, query.limit);
}

export function toPageView(messages: StoredMessage[], totalCount: number, page: number, limit: number): MessagePageView {
  return {
    page,
    totalCount,
    hasMore: (page + 1) * limit < totalCount,
    pageSize: limit,
    data: messages.map(messageView),
  };
}
