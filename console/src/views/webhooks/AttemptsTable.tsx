import { LocalDateTime } from '../../components/local-date-time.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { EndpointLog, excerpt } from './EndpointLog.tsx';
import type { Attempt } from './types.ts';

/** While a retry is scheduled the list is read again often; otherwise now and then, for new events. */
const PENDING_REFRESH_MS = 2_000;
const IDLE_REFRESH_MS = 5_000;

/** The endpoint's delivery attempts, newest event first: answer, event type, time, the answer's start. */
export function AttemptsTable({ environmentId, endpointId }: { environmentId: string; endpointId: string }) {
  return (
    <EndpointLog<Attempt>
      environmentId={environmentId}
      endpointId={endpointId}
      kind="attempts"
      what="delivery attempts"
      columns={['Time', 'Event type', 'Attempt', 'Status', 'Response', 'Details']}
      empty="No attempts yet: they appear here when an event this endpoint subscribes to happens (trigger a workflow to send one)."
      refreshMs={(attempts) => (attempts?.some((attempt) => attempt.nextAttemptAt !== null) ? PENDING_REFRESH_MS : IDLE_REFRESH_MS)}
      row={(attempt) => (
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
      )}
    />
  );
}
