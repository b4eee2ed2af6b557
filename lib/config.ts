// Settings come from the environment, read once. The CDK stack sets these on every function;
// the local runtime sets them before it loads any handler.
export const ENV = {
  tableName: 'TABLE_NAME',
  /** AWS: KMS key that wraps the data keys of integration secrets. */
  kmsKeyId: 'SECRETS_KMS_KEY_ID',
  /** The stage the function belongs to (`notify-<stage>`): a dimension of every metric (lib/observability/metrics.ts). */
  stage: 'NOTIFY_STAGE',
  /** Local: file holding the 32-byte master key (created on first use). */
  secretsKeyFile: 'SECRETS_KEY_FILE',
  /**
   * The API's public base URL: locally the local gateway's (links in logs, the printed curl); in
   * AWS the stack sets it on the queue consumers, which write tracked links on it (lib/engagement).
   */
  publicUrl: 'PUBLIC_URL',
  /** The WebSocket API's URL, the `socketUrl` clients are given (the console reads it; a deployed stack also outputs SocketUrl). */
  socketUrl: 'LIVE_SOCKET_URL',
  /** Where the console's built files are: the stack sets it to the folder in the function's asset, the local runtime to console/dist. */
  consoleDir: 'CONSOLE_DIR',
  /** The file holding this API's OpenAPI document: written from the route table at synth (in the function's asset) or at local start. */
  openApiDocument: 'OPENAPI_DOCUMENT',
  /**
   * Days triggers and notifications (with their jobs and execution details) are kept: how far back
   * the activity feed reads, and when DynamoDB deletes them by TTL (default 30; lib/store/retention.ts).
   */
  activityRetentionDays: 'ACTIVITY_RETENTION_DAYS',
  /** Days messages are kept before DynamoDB deletes them by TTL (default: the activity's). */
  messageRetentionDays: 'MESSAGE_RETENTION_DAYS',
  /** Folder the demo providers deliver to (JSON lines per channel); unset: the log. */
  deliverySinkDir: 'DELIVERY_SINK_DIR',
  /** Providers: how long one call to a provider may take (ms, default 10000). */
  providerTimeoutMs: 'PROVIDER_TIMEOUT_MS',
  /** Providers: the wait before the first retry of a transient failure (ms, default 500; doubles). */
  providerBackoffMs: 'PROVIDER_RETRY_BACKOFF_MS',
  /**
   * The live consumer: the WebSocket API's management endpoint (`https://<api>/<stage>`, its
   * callback URL; locally the socket server's own), where PostToConnection sends frames.
   */
  liveCallbackUrl: 'LIVE_CALLBACK_URL',
  /** Inbox: the shortest snooze (seconds ahead, default 60, the reference's). */
  inboxMinSnoozeSeconds: 'INBOX_MIN_SNOOZE_SECONDS',
  /** Inbox: the longest a subscriber may snooze a notification (hours, default 720: 30 days). */
  inboxMaxSnoozeHours: 'INBOX_MAX_SNOOZE_HOURS',
  /** HTTP API: origins allowed to call it from a browser (comma-separated; `*` for any; default `*`). */
  corsAllowedOrigins: 'CORS_ALLOWED_ORIGINS',
  /** API keys: how long a key replaced by a regenerated one keeps working (seconds, default 86400: 24 h). */
  apiKeyGraceSeconds: 'API_KEY_GRACE_SECONDS',
  /**
   * API rate limits (lib/rate-limits): the reference's service level whose limits apply
   * (free, pro, business, enterprise, unlimited; default free), and a stage's own limit of a
   * category in requests per second, which replaces the level's.
   */
  rateLimitServiceLevel: 'RATE_LIMIT_SERVICE_LEVEL',
  rateLimitTriggerPerSecond: 'RATE_LIMIT_TRIGGER_PER_SECOND',
  rateLimitConfigurationPerSecond: 'RATE_LIMIT_CONFIGURATION_PER_SECOND',
  rateLimitGlobalPerSecond: 'RATE_LIMIT_GLOBAL_PER_SECOND',
  /**
   * Local and tests only: `true` lets SES receipts name an SNS signing certificate (and a
   * subscription URL) on http://127.0.0.1 or localhost; in AWS only `https://sns.<region>.amazonaws.com`.
   */
  localSnsCertificates: 'RECEIPTS_LOCAL_SNS_CERTIFICATES',
  /**
   * Long waits (lib/queue/wake-scheduler.ts): a queue message due later than this many seconds is
   * scheduled once instead of sent with a delay (default 900: the longest delay SQS holds). The
   * local stack's tests shorten it.
   */
  longWaitSeconds: 'LONG_WAIT_THRESHOLD_SECONDS',
  /** AWS: the EventBridge Scheduler group long waits are scheduled in. */
  wakeScheduleGroup: 'WAKE_SCHEDULE_GROUP',
  /** AWS: the role EventBridge Scheduler assumes to send a due message to its queue. */
  wakeSchedulerRoleArn: 'WAKE_SCHEDULER_ROLE_ARN',
  /** Local: `table` keeps long waits as items of the table, sent on by the local runtime's poller. */
  localWakes: 'LOCAL_WAKES',
  /**
   * The longest delay or digest window a workflow may ask for, in days (default 180, the
   * reference's system cap; never under 1 day, below which the reference checks nothing).
   */
  maxDeferDays: 'MAX_DEFER_DAYS',
  /**
   * Webhooks: seconds before each attempt, the first's included (comma-separated; default Svix's schedule,
   * lib/webhooks/schedule.ts). Tests shorten it.
   */
  webhookRetryScheduleSeconds: 'WEBHOOK_RETRY_SCHEDULE_SECONDS',
  /** Webhooks: how long one POST may take before it counts as failed (ms, default 15000, Svix's). */
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  /**
   * Jobs: how long a send in progress holds its job (ms, default 60000; lib/pipeline/run-job.ts).
   * Tests that shorten the jobs queue's visibility timeout shorten it too.
   */
  sendLeaseMs: 'SEND_LEASE_MS',
  /**
   * `true`: outbound calls may reach private and loopback addresses (lib/net/address-guard.ts). The local
   * runtime sets it; never in AWS.
   */
  allowPrivateNetworks: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS',
  /** Code-first bridges (lib/bridge/client.ts): the wait before the first retry (ms, default 1000; it doubles). */
  bridgeBackoffMs: 'BRIDGE_RETRY_BACKOFF_MS',
  /**
   * Calls the API asks the outbound consumer to make (lib/bridge/outbound-*.ts): how long a handler waits for
   * the answer (ms, default 20000, inside the route function's 25 s and API Gateway's 29 s).
   */
  outboundAnswerWaitMs: 'OUTBOUND_ANSWER_WAIT_MS',
  /** Powertools: the service name on every log line (the stack sets the metrics' service name). */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /**
   * AWS SDK: the bound on one attempt of a call to the service's own AWS dependencies (ms; lib/sdk-timeouts.ts).
   * The stack sets it per function from the function's timeout; unset, 20000.
   */
  sdkAttemptTimeoutMs: 'SDK_ATTEMPT_TIMEOUT_MS',
  /** AWS SDK: an SQS endpoint of its own (the local runtime's emulator); set, calls go there rather than to a queue URL's host. */
  sqsEndpoint: 'AWS_ENDPOINT_URL_SQS',
} as const;

/**
 * Providers: the variable that replaces a provider's API origin (a regional endpoint, a local test
 * server), `PROVIDER_BASE_URL_<PROVIDER ID>` upper-cased with dashes as underscores:
 * PROVIDER_BASE_URL_FCM, PROVIDER_BASE_URL_WHATSAPP_BUSINESS (lib/providers/base-url.ts).
 */
export const providerBaseUrlEnv = (providerId: string): string => `PROVIDER_BASE_URL_${providerId.toUpperCase().replace(/-/g, '_')}`;

/** The variable's value; undefined when it is unset or empty. */
export const optional = (name: string): string | undefined => process.env[name] || undefined;

/**
 * The service's name in its logs, metrics (the `service` dimension the dashboard and alarms read)
 * and traces: Powertools' service name, which the stack sets on every function (ENV.serviceName).
 */
export const SERVICE_NAME = 'notify';

export function required(name: string): string {
  const value = optional(name);
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export const tableName = (): string => required(ENV.tableName);

/** A positive number from the environment (at most `max`), else the default. */
export function positiveNumber(name: string, fallback: number, max = Infinity): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.min(value, max) : fallback;
}

/** Whether the variable is `true` (anything else, or unset, is false). */
export const flag = (name: string): boolean => process.env[name] === 'true';

export const socketUrl = (): string | undefined => optional(ENV.socketUrl);

/**
 * The console's built files. Always set by who runs the function (the stack: the folder bundled
 * beside it; the local runtime: console/dist), so the bundle needs no path of its own (a
 * CommonJS bundle has no import.meta to find one from).
 */
export const consoleDir = (): string => required(ENV.consoleDir);

/** This API's OpenAPI document (infra/openapi-document.ts writes it where the function can read it). */
export const openApiDocumentFile = (): string => required(ENV.openApiDocument);
