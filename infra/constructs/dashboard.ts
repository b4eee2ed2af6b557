import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Dashboard as CloudWatchDashboard,
  GraphWidget,
  TextWidget,
  type GraphWidgetProps,
  type HorizontalAnnotation,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC } from '../../lib/observability/metric-names.ts';
import { deliveryFailureRate, FIVE_MINUTES, perProvider, stageMetric } from './service-metrics.ts';

// The stage's dashboard, `notify-<stage>` (docs/deploy.md, "Reading the dashboard"): what was
// accepted and delivered, what failed, how long it took, how far behind the queues are, and the
// API's own answers. Queue age is SQS's ApproximateAgeOfOldestMessage: SQS measures it even when
// no consumer runs (exactly when it matters), and it costs no custom metric.

export interface DashboardProps {
  stage: string;
  api: IHttpApi;
  /** The work queues by logical name (infra/queues.ts). */
  queues: ReadonlyArray<{ name: string; queue: IQueue }>;
  /** Every dead-letter queue, by the name its alarm uses. */
  deadLetterQueues: ReadonlyArray<{ name: string; queue: IQueue }>;
  /** The failure-rate alarm's threshold (%), drawn on its graph. */
  deliveryFailureRatePercent: number;
}

const WIDTH = 12;
const HEIGHT = 6;
const graph = (title: string, left: GraphWidgetProps['left'], extra: Partial<GraphWidgetProps> = {}) =>
  new GraphWidget({ title, left, width: WIDTH, height: HEIGHT, ...extra });

export class Dashboard extends Construct {
  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { stage } = props;
    const oneMinute = Duration.minutes(1);
    const threshold: HorizontalAnnotation = { value: props.deliveryFailureRatePercent, label: 'alarm' };

    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            `# notify-${stage}\n` +
            'Deliveries and failures per channel and provider, trigger-to-delivery latency, queues and the API. ' +
            "Alarms: topic of the stack's `AlarmTopicArn` output (docs/deploy.md).",
          width: 24,
          height: 2,
        }),
      ],
      [
        graph('Deliveries per channel and provider (5 min)', [perProvider(stage, METRIC.deliveries, 'Sum', 'delivered')], {
          right: [stageMetric(stage, METRIC.triggersAccepted, 'Sum', 'Triggers accepted (events)')],
        }),
        graph('Failures per channel and provider (5 min)', [perProvider(stage, METRIC.deliveryFailures, 'Sum', 'failed')]),
      ],
      [
        graph('Delivery failure rate (%)', [deliveryFailureRate(stage)], { leftAnnotations: [threshold], leftYAxis: { min: 0, max: 100 } }),
        graph(
          'Trigger-to-delivery latency (ms)',
          ['p50', 'p90', 'p99'].map((p) => stageMetric(stage, METRIC.triggerToDeliveryLatency, p, p)),
          { right: [perProvider(stage, METRIC.triggerToDeliveryLatency, 'p90', 'p90')] },
        ),
      ],
      [
        graph(
          'Queue age: oldest message (s)',
          props.queues.map(({ name, queue }) =>
            queue.metricApproximateAgeOfOldestMessage({ period: oneMinute, statistic: 'Maximum', label: name }),
          ),
        ),
        graph(
          'Dead-letter queues: messages',
          props.deadLetterQueues.map(({ name, queue }) =>
            queue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: 'Maximum', label: name }),
          ),
        ),
      ],
      [
        graph(
          'API answers 4xx and 5xx (5 min)',
          [
            props.api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }),
            props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' }),
          ],
          { right: [props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'requests' })] },
        ),
        graph(
          'API latency (ms)',
          ['p50', 'p90', 'p99'].map((p) => props.api.metricLatency({ period: FIVE_MINUTES, statistic: p, label: p })),
        ),
      ],
    ];

    new CloudWatchDashboard(this, 'Dashboard', { dashboardName: `notify-${stage}`, widgets: rows, defaultInterval: Duration.hours(3) });
  }
}
