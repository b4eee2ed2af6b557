import type { Channel } from '../integrations/catalogue.ts';
import type { SubscriberDefinition } from '../subscribers/model.ts';
import type { TimeUnit } from '../workflows/controls.ts';
import type { EngagementEvent } from '../workflows/engagement-events.ts';
import type { Severity, StepType } from '../workflows/model.ts';

// What a trigger produces, as stored. A Notification is one event for one subscriber; its jobs
// (one per active step, in order) and their execution details are kept inside the notification
// item, so the activity feed reads an item whole and every pipeline decision is one conditional
// write of one item (after the message it records, if any: lib/pipeline/store-decision.ts).

export const JOB_STATUSES = ['pending', 'queued', 'running', 'completed', 'failed', 'delayed', 'merged', 'skipped', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses after which a job never runs again. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'merged', 'skipped', 'canceled'];

export type DetailStatus = 'Success' | 'Warning' | 'Failed' | 'Pending' | 'Queued' | 'ReadConfirmation';
export type DetailSource = 'Credentials' | 'Internal' | 'Payload' | 'Webhook';

export interface ExecutionDetail {
  _id: string;
  createdAt: string;
  detail: string;
  status: DetailStatus;
  source: DetailSource;
  isRetry: boolean;
  isTest: boolean;
  providerId?: string;
  /** JSON text of what the decision was based on (provider answers are cut to a few KB). */
  raw?: string | null;
  messageId?: string;
  /** Source `Webhook`: the provider's word for the status, and its id of the receipt (one detail per receipt). */
  webhookStatus?: string;
  receiptId?: string;
}

/** Digest metadata as the activity feed shows it (the API's DigestMetadata shape). */
export interface DigestMetadata {
  type: 'regular' | 'backoff' | 'timed';
  digestKey?: string;
  digestValue?: string;
  amount?: number;
  unit?: TimeUnit;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: TimeUnit;
  timed?: { cronExpression?: string; untilDate?: string };
  /** Payloads of the digested events, the master's first; set when the window closes. */
  events?: Record<string, unknown>[];
}

export interface StoredJob {
  _id: string;
  /** Position in the chain (0 = the first step). */
  index: number;
  /** The step this job runs (database id and author's id). */
  stepDbId: string;
  stepId: string;
  type: StepType;
  status: JobStatus;
  /**
   * Channel steps: the provider the step would use when the job was built, then the one it used
   * (docs/architecture.md, "The provider a job names"). Steps no provider has a part in: `svc`,
   * the service. Null in items stored before every job named one (the activity view shows `svc`).
   */
  providerId: string | null;
  executionDetails: ExecutionDetail[];
  digest?: DigestMetadata;
  /** Delay/digest: when the job is due again. */
  delayUntil?: string;
  /** Digest master: the open window's id (the master's own job id). */
  digestWindowId?: string;
  /** Digest follower: the master job's notification. */
  mergedInto?: { notificationId: string; transactionId: string; jobId: string };
  /** Throttle: what the counter said; custom steps of code-first workflows: what the bridge returned. */
  stepOutput?: Record<string, unknown>;
  /**
   * Delay and digest steps of code-first workflows: the bridge's outputs the wait was set from,
   * kept so that the job resumed after the wait (and later steps' state) reads them again.
   */
  bridgeOutputs?: Record<string, unknown>;
  messageId?: string;
  /** A delay waiting for engagement: the earlier step's message it watches, and for what (steps/delay.ts). */
  engagementWait?: { messageId: string; event: EngagementEvent };
  error?: string;
  /** A send in progress: until then a redelivered message waits; after, the outcome is unknown. */
  leaseUntil?: string;
  scheduleExtensionsCount?: number;
  /**
   * Delays: how long the job has been put off, its own wait and any extension to the subscriber's
   * schedule summed (the `duration` a code-first delay's next steps read, bridge-state.ts).
   */
  waitedMs?: number;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationTopic {
  _topicId: string;
  topicKey: string;
}

/** Subscriber fields copied onto the notification when it is created. */
export interface SubscriberSummary {
  _id: string;
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface StoredNotification {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  /** Workflow database id and trigger identifier. */
  _templateId: string;
  templateIdentifier: string;
  /** The workflow's version its trigger was accepted with: jobs never run an older one (read-cache.ts). */
  workflowVersion?: number;
  transactionId: string;
  /** Internal and external id of the subscriber. */
  _subscriberId: string;
  subscriberId: string;
  subscriber: SubscriberSummary;
  topics: NotificationTopic[];
  channels: StepType[];
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  /** The recipient definition this notification came from. */
  to: unknown;
  tags: string[];
  controls: Record<string, unknown>;
  severity: Severity;
  critical: boolean;
  contextKeys: string[];
  /** The trigger's context, by type (`{{context.<type>.id}}`, `{{context.<type>.data}}`). */
  context?: Record<string, { id: string; data?: Record<string, unknown> }>;
  /**
   * The tenant its trigger named: its identifier (the trigger's name and data for it are in the
   * stored tenant and `tenantSnapshot`; items stored before kept them here too).
   */
  tenant?: TenantRef;
  /**
   * The stored tenant the trigger named, read once by its fan-out after the trigger's update
   * (templates' `tenant`: tenant-snapshot.ts). Absent when too large to keep: jobs read the tenant.
   */
  tenantSnapshot?: TenantSnapshot;
  actor?: SubscriberSummary;
  _digestedNotificationId?: string;
  /** Code-first workflows: the trigger's own bridge URL, used instead of the environment's (lib/bridge). */
  bridgeUrl?: string;
  /** Its trigger's `notificationShards` (absent: 1): which partition of the transaction holds it (keys.notification). */
  notificationShards?: number;
  jobs: StoredJob[];
  createdAt: string;
  updatedAt: string;
}

export interface TenantRef {
  identifier: string;
  name?: string;
  data?: Record<string, unknown>;
}

export interface TenantSnapshot {
  _id: string;
  identifier: string;
  name: string;
  data: Record<string, unknown>;
}

export interface TopicRecipient {
  type: 'Topic';
  topicKey: string;
  exclude?: string[];
}

export type Recipient = string | SubscriberDefinition | TopicRecipient;

/**
 * An accepted trigger, stored under its transactionId (the claim) and processed by the events
 * consumer. `broadcast` means every subscriber of the environment instead of `to`.
 */
export interface TriggerEvent {
  _organizationId: string;
  _environmentId: string;
  transactionId: string;
  /** Workflow trigger identifier and database id, as resolved when the trigger was accepted. */
  workflowId: string;
  workflowDbId: string;
  /** Its version then: the consumers never run an older one (read-cache.ts). Absent in triggers stored before it was kept. */
  workflowVersion?: number;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  to: Recipient[];
  broadcast?: boolean;
  actor?: SubscriberDefinition;
  tenant?: TenantRef;
  /** `type:id` keys, sorted; context data is stored per key. */
  contextKeys: string[];
  context?: Record<string, { id: string; data?: Record<string, unknown> }>;
  /** Who triggered (the API key's user). */
  userId: string;
  createdAt: string;
  /** Code-first workflows: the trigger's own bridge URL, used for this event instead of the environment's. */
  bridgeUrl?: string;
  /** Set by DELETE /v1/events/trigger/{transactionId}: notifications not yet created never will be. */
  canceledAt?: string;
  /**
   * How many partitions its notifications are spread over (keys.notification), decided when it
   * is accepted: TRANSACTION_SHARDS for a topic, a broadcast or many single recipients; absent
   * (1: the transaction's own partition) otherwise, and in triggers stored before sharding.
   */
  notificationShards?: number;
}

/** Channels a step type delivers on (undefined for action steps). */
export function channelOfStep(type: StepType): Channel | undefined {
  return type === 'in_app' || type === 'email' || type === 'sms' || type === 'chat' || type === 'push' ? type : undefined;
}
