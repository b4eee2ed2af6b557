import type { SubscriberChoices } from '../preferences/repository.ts';
import type { StoredMessage } from '../messages/model.ts';
import type { Subscriber } from '../subscribers/model.ts';
import type { StoredStep, StoredWorkflow } from '../workflows/model.ts';
import type { EnvScope } from '../scope.ts';
import type { ExecutionDetail, JobStatus, StoredJob, StoredNotification } from './model.ts';
import type { TransactItem } from '../store/transact.ts';

// What a step decides, as data: the runner applies every decision the same way: the message it
// records first (a create that a repeated run finds), then one conditional write of the
// notification, in one transaction with the items the decision changes. Step handlers never
// write themselves (except a provider send, which happens between two decisions).

export interface JobContext {
  scope: EnvScope;
  notification: StoredNotification;
  job: StoredJob;
  step: StoredStep;
  workflow: StoredWorkflow;
  /** The subscriber as it is now (undefined if deleted since the trigger). */
  subscriber: Subscriber | undefined;
  /** The subscriber's preference choices as they are now (read with the subscriber). */
  choices: SubscriberChoices;
  /** Until when the subscriber may have an inbox socket open (epoch seconds, lib/live/presence.ts). */
  liveUntil?: number;
  /** Template and condition variables: subscriber, payload, step (digest), tenant, actor, context. */
  variables: Record<string, unknown>;
  /**
   * The step's control values are content already rendered (a code-first step's bridge outputs,
   * steps/bridge.ts): the senders use them as they are, with no Liquid of theirs.
   */
  verbatim?: true;
  now: Date;
}

export type After =
  /** Go on with the next job now. */
  | { kind: 'next' }
  /** Run this job again at `until` (delay and digest windows). */
  | { kind: 'wait'; until: Date }
  /** The chain ends here; jobs not started yet get `rest` (and `detail`, if given). */
  | { kind: 'end'; rest: JobStatus; detail?: string };

export interface Decision {
  status: JobStatus;
  details: ExecutionDetail[];
  /** Other job fields to set (providerId, digest, delayUntil, messageId, error, ...). */
  job?: Partial<StoredJob>;
  notification?: Partial<StoredNotification>;
  /**
   * The message the step records, written before the notification. Its id is fixed by the job
   * (message-id.ts), so the write is a create that a repeated run finds done: no transaction is
   * needed to make it once, which halves its write units (DynamoDB bills transactional writes
   * twice) and keeps the runner's hot path to plain conditional Puts.
   */
  message?: StoredMessage;
  /** Items written in the same transaction as the notification (a digest window, a throttle count). */
  also?: TransactItem[];
  /** Once `message` is stored, the subscriber's open inbox sockets are told (lib/live/). */
  announce?: boolean;
  after: After;
  /**
   * An external send: the runner first stores this decision (the job `running` under a lease),
   * then calls `send` with the lease's end, then stores the decision it returns.
   */
  send?: (leaseUntil: Date) => Promise<Decision>;
}

export const next: After = { kind: 'next' };

/** A channel step that failed: the workflow goes on unless the step says to stop, as in the reference. */
export function afterFailure(step: StoredStep): After {
  return step.shouldStopOnFail ? { kind: 'end', rest: 'canceled', detail: 'Step was canceled because a previous step failed' } : next;
}
