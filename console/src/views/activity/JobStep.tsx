import { Link } from 'react-router';
import { RawJson } from '../../components/raw-json.tsx';
import { ProviderName, StepTypeName } from '../../components/named.tsx';
import { stepTypeLabel } from '../../components/names.ts';
import { StatusBadge } from '../../components/status-badge.tsx';
import { isWaiting } from './status.ts';
import { notificationPath } from './format.ts';
import type { ActivityJob, DigestInfo, ExecutionDetail, Message } from './types.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { Empty } from '../../components/states.tsx';

interface JobStepProps {
  environmentId: string;
  job: ActivityJob;
  message: Message | undefined;
  /** The notification whose digest this one went into, when it did. */
  digestedInto: string | undefined;
}

/** One job of the timeline: its step, status, provider, wait, the message it made and its execution details. */
export function JobStep({ environmentId, job, message, digestedInto }: JobStepProps) {
  return (
    <li className={`timeline-job job-${job.status}`}>
      <header className="timeline-head">
        <strong>{job.step.name ?? stepTypeLabel(job.type)}</strong>
        <small className="timeline-type">
          <StepTypeName type={job.type} />
        </small>
        <StatusBadge status={job.status} />
        {job.providerId && (
          <small>
            Provider <ProviderName providerId={job.providerId} />
          </small>
        )}
        {job.updatedAt && (
          <small>
            Updated <LocalDateTime iso={job.updatedAt} />
          </small>
        )}
      </header>
      {job.type === 'delay' && <DelayInfo metadata={job.step.metadata} />}
      {job.type === 'digest' && (job.digest ?? job.step.metadata) && (
        <DigestInfoView digest={(job.digest ?? job.step.metadata) as DigestInfo} />
      )}
      {job.status === 'merged' && (
        <p className="timeline-merge-note">
          {digestedInto ? (
            <>
              Merged into the digest of <Link to={notificationPath(environmentId, digestedInto)}>another notification</Link>: that
              notification sends for this event.
            </>
          ) : (
            'Merged into the digest of another notification, which sends for this event.'
          )}
        </p>
      )}
      {message && <MessageView message={message} />}
      <Details details={job.executionDetails} jobWaiting={isWaiting(job)} />
    </li>
  );
}

function DelayInfo({ metadata }: { metadata: Record<string, unknown> | undefined }) {
  if (!metadata) return null;
  const { type, amount, unit, cronExpression, delayPath } = metadata as Record<string, string | number | undefined>;
  const text =
    type === 'timed'
      ? `until the schedule ${String(cronExpression)}`
      : type === 'scheduled'
        ? `until the date at payload ${String(delayPath)}`
        : `${amount} ${unit}`;
  return <p className="timeline-wait">Delay: {text}</p>;
}

function DigestInfoView({ digest }: { digest: DigestInfo }) {
  const window =
    digest.type === 'timed'
      ? `on the schedule ${digest.timed?.cronExpression ?? ''}`
      : digest.amount !== undefined
        ? `for ${digest.amount} ${digest.unit ?? ''}`
        : '';
  const events = digest.events;
  return (
    <div className="timeline-wait">
      <p>
        Digest {window}
        {digest.digestKey && (
          <>
            {' '}
            by <code>{digest.digestKey}</code>
          </>
        )}
        {digest.backoff && ` (look-back ${digest.backoffAmount ?? ''} ${digest.backoffUnit ?? ''})`}
        {events && <strong>{` · ${events.length} ${events.length === 1 ? 'event' : 'events'} digested`}</strong>}
      </p>
      {events && events.length > 0 && <RawJson value={events} summary={`Digested events (${events.length})`} />}
    </div>
  );
}

function MessageView({ message }: { message: Message }) {
  const heading = message.subject ?? message.title;
  const recipient = message.email ?? message.phone;
  return (
    <div className="timeline-message">
      <p>
        Message <StatusBadge status={message.status} />
        {message.deliveryStatus && <> delivery: {message.deliveryStatus}</>}
        {recipient && <> to {recipient}</>}
        {message.channel === 'in_app' && <> · {message.read ? 'read' : message.seen ? 'seen' : 'unseen'}</>}
      </p>
      {heading && <p className="timeline-excerpt">{heading}</p>}
      {message.channel !== 'email' && <p className="timeline-excerpt">{message.content}</p>}
      {message.errorText && <p className="timeline-error">{message.errorText}</p>}
      <EngagementView message={message} />
      <RawJson value={message} summary="Message" />
    </div>
  );
}

/**
 * What the recipient did with the message, as the service tracked it: the first open, the first
 * and latest click and how many, and the original URLs its tracked links lead to. Nothing when
 * nothing was tracked.
 */
function EngagementView({ message }: { message: Message }) {
  const { opened, clicked, clickCount = 0, lastClickedAt, links = [] } = message;
  if (!opened && !clicked && links.length === 0) return null;
  // An open is only known where open tracking is on: its absence says nothing, so it is not shown.
  return (
    <div className="timeline-engagement" aria-label="Engagement">
      <p>
        {opened && (
          <>
            Opened <LocalDateTime iso={opened} />
            {(clicked || links.length > 0) && ' · '}
          </>
        )}
        {clicked ? (
          <>
            Clicked <LocalDateTime iso={clicked} /> · {clickCount} {clickCount === 1 ? 'click' : 'clicks'}
            {clickCount > 1 && lastClickedAt && (
              <>
                , the latest <LocalDateTime iso={lastClickedAt} />
              </>
            )}
          </>
        ) : (
          links.length > 0 && 'No link clicked yet'
        )}
      </p>
      {links.length > 0 && (
        <details>
          <summary>Tracked links ({links.length})</summary>
          <ul className="timeline-links">
            {links.map((url, i) => (
              <li key={i}>
                {/* Tracked links are http(s) URLs only; anything else is shown as text, never followed. */}
                {/^https?:\/\//i.test(url) ? (
                  <a href={url} target="_blank" rel="noopener noreferrer">
                    {url}
                  </a>
                ) : (
                  url
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * An execution detail is an event that happened: the API's `Pending` or `Queued` on "Step queued"
 * or "Message created" says what the job was doing then, so it reads `done` once the job went on,
 * and `waiting` only as the last word of a job still waiting. The API's word is on hover.
 */
function detailStatus(detail: ExecutionDetail, last: boolean, jobWaiting: boolean): string {
  switch (detail.status) {
    case 'Failed':
      return 'failed';
    case 'Warning':
      return 'warning';
    case 'ReadConfirmation':
      return 'read';
    case 'Pending':
    case 'Queued':
      return last && jobWaiting ? 'waiting' : 'done';
    default:
      return 'done';
  }
}

function Details({ details, jobWaiting }: { details: ExecutionDetail[]; jobWaiting: boolean }) {
  if (details.length === 0) return <Empty>No execution details yet.</Empty>;
  return (
    // Not a list: the jobs' list holds one item per job and nothing else, for whoever counts them.
    <div className="timeline-details">
      {details.map((d, i) => (
        <div key={d._id} className="timeline-detail">
          <StatusBadge status={detailStatus(d, i === details.length - 1, jobWaiting)} title={d.status} /> {d.detail}
          <small>
            {' '}
            · {d.source}
            {d.providerId && (
              <>
                {' · '}
                <ProviderName providerId={d.providerId} />
              </>
            )}
            {d.isRetry && ' · retry'}
            {d.createdAt && (
              <>
                {' '}
                · <LocalDateTime iso={d.createdAt} />
              </>
            )}
          </small>
          {d.raw && <RawJson value={parseRaw(d.raw)} summary="Raw data" />}
        </div>
      ))}
    </div>
  );
}

/** Raw data is JSON text; shown as it is when it is not. */
function parseRaw(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
