import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import { useCursor } from '../../components/list-pager.tsx';
import { PageTable, type Column } from './PageTable.tsx';
import type { CursorPage } from '../../api/cursor-page.ts';
import type { TopicSubscription } from './types.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';

// GET /v2/subscribers/{id}/subscriptions: the topics the subscriber is in, cursor pages in the URL.

const PAGE_SIZE = 20;
const CURSOR = 'topics';

const COLUMNS: Column<TopicSubscription>[] = [
  ['Topic key', (s) => <code>{s.topic.key}</code>],
  ['Name', (s) => s.topic.name],
  ['Subscribed', (s) => <LocalDateTime iso={s.createdAt} />],
];

export function TopicsPanel({ environmentId, subscriberId }: { environmentId: string; subscriberId: string }) {
  const cursor = useCursor(CURSOR);
  const query = useQuery({
    queryKey: ['subscriber-topics', environmentId, subscriberId, cursor],
    queryFn: ({ signal }) =>
      api<CursorPage<TopicSubscription>>(environmentId, `/v2/subscribers/${encodeURIComponent(subscriberId)}/subscriptions`, {
        query: { ...cursor, limit: PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryState query={query} what="topics">
      {(page) =>
        page.data.length === 0 ? (
          <Empty>Not subscribed to any topic. Add the subscriber with POST /v2/topics/&#123;key&#125;/subscriptions.</Empty>
        ) : (
          <PageTable page={page} columns={COLUMNS} prefix={CURSOR} label="Topic pages" />
        )
      }
    </QueryState>
  );
}
