import { LocalDateTime } from '../../components/local-date-time.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { EndpointLog, excerpt } from './EndpointLog.tsx';
import type { DeadLetter } from './types.ts';

/** The events given up on after their last attempt, with the event as it was sent. */
export function DeadLettersTable({ environmentId, endpointId }: { environmentId: string; endpointId: string }) {
  return (
    <EndpointLog<DeadLetter>
      environmentId={environmentId}
      endpointId={endpointId}
      kind="dead-letters"
      what="dead letters"
      columns={['Given up', 'Event type', 'Attempts', 'Last status', 'Last response', 'Event']}
      empty="No dead letters: every event was delivered or is still being retried."
      row={(letter) => (
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
            <RawJson value={letter} />
          </td>
        </tr>
      )}
    />
  );
}
