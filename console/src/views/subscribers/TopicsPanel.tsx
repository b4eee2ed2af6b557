import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import { CursorPager, cursorOf } from './CursorPager.tsx';
import type { CursorPage, TopicSubscription } from './types.ts';

// GET /v2/subscribers/{id}/subscriptions: the topics the subscriber is in, cursor pages in the URL.

const PAGE_SIZE = 20;
const CURSOR = 'topics';

export function TopicsPanel({ environmentId, subscriberId }: { environmentId: string; subscriberId: string }) {
  const [params] = useSearchParams();
  const cursor = cursorOf(params, CURSOR);
  const query = useQuery({
    queryKey: ['subscriber-topics', environmentId, subscriberId, cursor],
    queryFn: ({ signal }) =>
      api<CursorPage<TopicSubscription>>(environmentId, `/v2/subscribers/${encodeURIComponent(subscriberId)}/subscriptions`, { query: { ...cursor, limit: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryState query={query} what="topics">
      {(page) =>
        page.data.length === 0 ? (
          <Empty>Not subscribed to any topic. Add the subscriber with POST /v2/topics/&#123;key&#125;/subscriptions.</Empty>
        ) : (
          <>
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Topic key</th>
                    <th scope="col">Name</th>
                    <th scope="col">Subscribed</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((s) => (
                    <tr key={s._id}>
                      <td>
                        <code>{s.topic.key}</code>
                      </td>
                      <td>{s.topic.name}</td>
                      <td>{new Date(s.createdAt).toLocaleString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <CursorPager next={page.next} previous={page.previous} prefix={CURSOR} label="Topic pages" />
          </>
        )
      }
    </QueryState>
  );
}
