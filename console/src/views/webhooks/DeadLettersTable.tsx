import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { CursorPager, useCursor } from '../../components/list-pager.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { excerpt } from './AttemptsTable.tsx';
import { endpointUrl, type CursorList, type DeadLetter } from './types.ts';

/** The events given up on after their last attempt, with the event as it was sent. */
export function DeadLettersTable({ environmentId, endpointId }: { environmentId: string; endpointId: string }) {
  const cursor = useCursor();
  const deadLetters = useQuery({
    queryKey: ['webhooks', environmentId, 'dead-letters', endpointId, cursor],
    queryFn: ({ signal }) => api<CursorList<DeadLetter>>(environmentId, `${endpointUrl(endpointId)}/dead-letters`, { query: { limit: 20, ...cursor }, signal }),
  });
  return (
    <QueryState query={deadLetters} what="dead letters">
      {(page) =>
        page.data.length === 0 ? (
          <Empty>No dead letters: every event was delivered or is still being retried.</Empty>
        ) : (
          <>
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Given up</th>
                    <th scope="col">Event type</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last status</th>
                    <th scope="col">Last response</th>
                    <th scope="col">Event</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((letter) => (
                    <tr key={letter.eventId}>
                      <td>
                        <LocalDateTime iso={letter.failedAt} />
                      </td>
                      <td>{letter.eventType}</td>
                      <td>{letter.attempts}</td>
                      <td>{letter.lastStatusCode ?? 'no answer'}</td>
                      <td>
                        <code className="response-excerpt">{excerpt(letter.lastResponse)}</code>
                      </td>
                      <td>
                        <RawJson value={letter} summary="Raw" />
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
