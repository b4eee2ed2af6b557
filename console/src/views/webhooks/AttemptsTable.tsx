import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { CursorPager, useCursor } from '../../components/list-pager.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { endpointUrl, type Attempt, type CursorList } from './types.ts';

/** While a retry is scheduled the list is read again often; otherwise now and then, for new events. */
const PENDING_REFRESH_MS = 2_000;
const IDLE_REFRESH_MS = 5_000;

/** The endpoint's delivery attempts, newest event first: answer, event type, time, the answer's start. */
export function AttemptsTable({ environmentId, endpointId }: { environmentId: string; endpointId: string }) {
  const cursor = useCursor();
  const attempts = useQuery({
    queryKey: ['webhooks', environmentId, 'attempts', endpointId, cursor],
    queryFn: ({ signal }) => api<CursorList<Attempt>>(environmentId, `${endpointUrl(endpointId)}/attempts`, { query: { limit: 20, ...cursor }, signal }),
    refetchInterval: (query) => (query.state.data?.data.some((attempt) => attempt.nextAttemptAt !== null) ? PENDING_REFRESH_MS : IDLE_REFRESH_MS),
  });
  return (
    <QueryState query={attempts} what="delivery attempts">
      {(page) =>
        page.data.length === 0 ? (
          <Empty>No attempts yet: they appear here when an event this endpoint subscribes to happens (trigger a workflow to send one).</Empty>
        ) : (
          <>
            <div className="table-scroll">
              <table>
                
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Event type</th>
                    <th scope="col">Attempt</th>
                    <th scope="col">Status</th>
                    <th scope="col">Response</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((attempt) => (
                    <tr key={`${attempt.eventId}/${attempt.attempt}`}>
                      <td>
                        <LocalDateTime iso={attempt.timestamp} />
                      </td>
                      <td>{attempt.eventType}</td>
                      <td>
                        {attempt.attempt}
                        {attempt.nextAttemptAt ? (
                          <>
                            {' '}
                            <StatusBadge status="pending" /> next <LocalDateTime iso={attempt.nextAttemptAt} />
                          </>
                        ) : null}
                      </td>
                      <td>
                        <StatusBadge status={attempt.success ? 'success' : 'failed'} /> {attempt.statusCode ?? 'no answer'} · {attempt.latencyMs} ms
                      </td>
                      <td>
                        <code className="response-excerpt">{excerpt(attempt.response)}</code>
                      </td>
                      <td>
                        <RawJson value={attempt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <CursorPager previous={page.previous} next={page.next} />
          </>
        )
      }
    </QueryState>
  );
}

/** The first line-ish of a receiver's answer; the whole one is in the raw JSON. */
export function excerpt(text: string, length = 120): string {
  if (!text) return '(empty)';
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
