import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { SERVICE_NAME } from '../../lib/config.ts';
import { DELIVERY_DIMENSIONS, METRIC, METRICS_NAMESPACE } from '../../lib/observability/metric-names.ts';

// The service's own metrics (lib/observability/metrics.ts writes them as EMF log lines) as the
// dashboard and the alarms read them: the stage's totals by name, the per-channel-and-provider
// series by SEARCH (their providers are not known when the stack is made; alarms cannot SEARCH,
// which is why every point is also published without channel and provider).

export type ServiceMetric = (typeof METRIC)[keyof typeof METRIC];

export const FIVE_MINUTES = Duration.minutes(5);

/** Channel jobs that ended in a period, below which the failure rate counts as 0 (one failure of two is not an incident). */
export const FAILURE_RATE_MIN_JOBS = 10;

/** A metric of the whole stage (dimensions service and stage). */
export function stageMetric(stage: string, metricName: ServiceMetric, statistic: string, label?: string): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAME, stage },
    statistic,
    period: FIVE_MINUTES,
    ...(label && { label }),
  });
}

/** One series per channel and provider that had points in the period shown, labelled by them. */
export function perProvider(stage: string, metricName: ServiceMetric, statistic: string, label: string): MathExpression {
  const schema = [METRICS_NAMESPACE, 'service', 'stage', ...DELIVERY_DIMENSIONS].join(',');
  return new MathExpression({
    expression:
      `SEARCH('{${schema}} MetricName="${metricName}" service="${SERVICE_NAME}" stage="${stage}"', ` +
      `'${statistic}', ${FIVE_MINUTES.toSeconds()})`,
    // CloudWatch's dynamic label: each series named by its channel and provider.
    label: `${label} \${PROP('Dim.channel')} \${PROP('Dim.provider')}`,
    period: FIVE_MINUTES,
  });
}

/**
 * Failed channel jobs as a percentage of those that ended (delivered + failed) in 5 minutes; 0
 * below FAILURE_RATE_MIN_JOBS, and when nothing was sent.
 */
export function deliveryFailureRate(stage: string): MathExpression {
  const ended = '(FILL(delivered, 0) + FILL(failed, 0))';
  return new MathExpression({
    expression: `IF(${ended} >= ${FAILURE_RATE_MIN_JOBS}, 100 * FILL(failed, 0) / ${ended}, 0)`,
    label: 'Delivery failure rate (%)',
    period: FIVE_MINUTES,
    usingMetrics: {
      delivered: stageMetric(stage, METRIC.deliveries, 'Sum'),
      failed: stageMetric(stage, METRIC.deliveryFailures, 'Sum'),
    },
  });
}
