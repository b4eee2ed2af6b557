import { Link, useParams } from 'react-router';
import { RawJson } from '../../components/raw-json.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Empty, ErrorNote, QueryState } from '../../components/states.tsx';
import { notificationPath, subscriberLabel, subscriberPath, workflowName, workflowPath } from './format.ts';
import { JobStep } from './JobStep.tsx';
import { useNotification, useNotificationMessages } from './queries.ts';
import { overallStatus, stillRunning } from './status.ts';
import type { ActivityNotification, Message } from './types.ts';
import './activity.css';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { consolePath } from '../../components/console-path.ts';

/** `/console/env/:environmentId/activity/:notificationId`: one notification's jobs as a timeline, live while they run. */
export function NotificationTimeline() {
  const { environmentId = '', notificationId = '' } = useParams();
  const notification = useNotification(environmentId, notificationId);

  return (
    <section>
      <p>
        <Link to={consolePath(environmentId, 'activity')}>← Activity</Link>
      </p>
      <QueryState query={notification} what="the notification">
        {(n) => <Timeline environmentId={environmentId} notification={n} />}
      </QueryState>
    </section>
  );
}

function Timeline({ environmentId, notification: n }: { environmentId: string; notification: ActivityNotification }) {
  const messages = useNotificationMessages(environmentId, n);
  const byJob = new Map<string, Message>((messages.data?.data ?? []).map((m) => [m._jobId, m]));
  const workflowLink = workflowPath(environmentId, n);
  const subscriberLink = subscriberPath(environmentId, n);
  const running = stillRunning(n);
  const jobs = n.jobs ?? [];

  return (
    <>
      <hgroup>
        <h1>{workflowName(n)}</h1>
        <p>Notification {n._id}</p>
      </hgroup>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span aria-label="Notification status">
            <StatusBadge status={overallStatus(n)} />
          </span>{' '}
          {running && (
            <span role="status" aria-busy="true" className="activity-updating">
              Updating…
            </span>
          )}
        </dd>
        <dt>Workflow</dt>
        <dd>{workflowLink ? <Link to={workflowLink}>{workflowName(n)}</Link> : workflowName(n)}</dd>
        <dt>Subscriber</dt>
        <dd>{subscriberLink ? <Link to={subscriberLink}>{subscriberLabel(n)}</Link> : subscriberLabel(n)}</dd>
        <dt>Transaction ID</dt>
        <dd>
          <code>{n.transactionId}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <LocalDateTime iso={n.createdAt} />
        </dd>
        {n.topics && n.topics.length > 0 && (
          <>
            <dt>Topics</dt>
            <dd>{n.topics.map((t) => t.topicKey).join(', ')}</dd>
          </>
        )}
        {n._digestedNotificationId && (
          <>
            <dt>Digest</dt>
            <dd>
              Merged into{' '}
              <Link to={notificationPath(environmentId, n._digestedNotificationId)}>the notification that sends the digest</Link>
            </dd>
          </>
        )}
      </dl>
      <RawJson value={n.payload ?? {}} summary="Payload" />
      <h2>Jobs</h2>
      {messages.error && <ErrorNote error={messages.error} title="Could not load the messages of this notification" />}
      {jobs.length === 0 ? (
        <Empty>This notification has no jobs: its workflow had no active step for it.</Empty>
      ) : (
        <ol aria-label="Jobs" className="timeline">
          {jobs.map((job) => (
            <JobStep
              key={job._id}
              environmentId={environmentId}
              job={job}
              message={byJob.get(job._id)}
              digestedInto={n._digestedNotificationId}
            />
          ))}
        </ol>
      )}
    </>
  );
}
