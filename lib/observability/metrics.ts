import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { ENV, optional, SERVICE_NAME } from '../config.ts';
import { METRIC, METRICS_NAMESPACE } from './metric-names.ts';
import type { Channel } from '../integrations/catalogue.ts';
import type { EnvScope } from '../scope.ts';

// The service's own metrics, the one module that emits them (CloudWatch Embedded Metric Format
// through Powertools Metrics): domain code calls record*, the Lambda edges call flushMetrics once
// per invocation (responses() in lib/http/middleware.ts, consumer-handler.ts), which writes one
// JSON line per environment and dimension set to stdout; in AWS CloudWatch Logs turns the lines
// into metrics, locally they are log lines like any other.
//
// Dimensions stay few, so the number of metrics (and their bill) does not grow with customers:
// service and stage on every metric, channel and provider on the delivery ones. Organization and
// environment ids are never dimensions: they ride along as properties of the line, for Logs
// Insights, which is why the buffer is grouped by environment too.

/** The stage every metric names (the stack sets it; `local` for npm start and the tests). */
const stageName = (): string => optional(ENV.stage) ?? 'local';

interface Group {
  scope: EnvScope;
  /** Channel and provider of delivery metrics; none for the trigger count. */
  dimensions?: { channel: string; provider: string };
  counts: Map<string, number>;
  latencies: number[];
}

// Buffered per process until the invocation's flush. The local runtime runs several invocations
// at once in one process: one may flush another's points early, but each is written once.
const groups = new Map<string, Group>();

function groupOf(scope: EnvScope, dimensions?: Group['dimensions']): Group {
  const key = JSON.stringify([scope.organizationId, scope.environmentId, dimensions?.channel, dimensions?.provider]);
  let group = groups.get(key);
  if (!group) {
    group = { scope, ...(dimensions && { dimensions }), counts: new Map(), latencies: [] };
    groups.set(key, group);
  }
  return group;
}

const add = (group: Group, name: string, value: number) => group.counts.set(name, (group.counts.get(name) ?? 0) + value);

/** A trigger route accepted `count` events (queued for delivery). */
export function recordTriggersAccepted(scope: EnvScope, count: number): void {
  if (count > 0) add(groupOf(scope), METRIC.triggersAccepted, count);
}

export interface DeliveryOutcome {
  channel: Channel;
  /** The provider the job used; `svc` when none had a part (the service itself). */
  providerId: string | null | undefined;
  delivered: boolean;
  /** When the trigger was accepted, and when the provider accepted the message. */
  acceptedAt: string;
  deliveredAt: Date;
}

/** A channel job ended: delivered (with its latency) or failed. */
export function recordDelivery(scope: EnvScope, outcome: DeliveryOutcome): void {
  const group = groupOf(scope, { channel: outcome.channel, provider: outcome.providerId || 'svc' });
  if (!outcome.delivered) {
    add(group, METRIC.deliveryFailures, 1);
    return;
  }
  add(group, METRIC.deliveries, 1);
  const latency = outcome.deliveredAt.getTime() - Date.parse(outcome.acceptedAt);
  if (Number.isFinite(latency)) group.latencies.push(Math.max(0, latency));
}

let metrics: Metrics | undefined;
/** Values of one metric on one EMF line (Powertools' and CloudWatch's limit). */
const MAX_VALUES_PER_LINE = 100;

/** Writes what this process recorded since the last flush; nothing when nothing was recorded. */
export function flushMetrics(): void {
  if (groups.size === 0) return;
  metrics ??= new Metrics({
    namespace: METRICS_NAMESPACE,
    // The name the dashboard and alarms read (infra/constructs/service-metrics.ts), not the
    // variable: the stack sets POWERTOOLS_SERVICE_NAME to the same, and the two must not part.
    serviceName: SERVICE_NAME,
    defaultDimensions: { stage: stageName() },
  });
  const pending = [...groups.values()];
  groups.clear();
  for (const group of pending) {
    // Powertools flushes a line by itself when a metric reaches 100 values, and clears the line's
    // dimensions and properties then: latencies go out 100 a line, each line set up whole.
    for (let i = 0; i === 0 || i < group.latencies.length; i += MAX_VALUES_PER_LINE) {
      if (group.dimensions) {
        metrics.addDimensions(group.dimensions);
        // The same points without channel and provider too: the stage's totals, which an alarm
        // can read by name (alarms cannot SEARCH over providers).
        metrics.addDimensions({});
      }
      metrics.addMetadata('organizationId', group.scope.organizationId);
      metrics.addMetadata('environmentId', group.scope.environmentId);
      if (i === 0) for (const [name, value] of group.counts) metrics.addMetric(name, MetricUnit.Count, value);
      for (const latency of group.latencies.slice(i, i + MAX_VALUES_PER_LINE)) {
        metrics.addMetric(METRIC.triggerToDeliveryLatency, MetricUnit.Milliseconds, latency);
      }
      // The 100th value has flushed the line already.
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    }
  }
}
