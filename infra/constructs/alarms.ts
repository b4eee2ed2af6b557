import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { deliveryFailureRate, FAILURE_RATE_MIN_JOBS, FIVE_MINUTES } from './service-metrics.ts';

// The stage's alarms, all sent to one SNS topic: subscribe to it (an email from context
// `alarmEmail`, or later with `aws sns subscribe`) to be told. Every alarm also notifies when it
// returns to OK, so a resolved problem is visible too.

export interface AlarmsProps {
  stage: string;
  api: IHttpApi;
  table: ITableV2;
  /** Dead-letter queues by logical queue name. */
  deadLetterQueues: ReadonlyArray<{ name: string; queue: IQueue }>;
  /** Queue consumers by logical queue name. */
  consumers: ReadonlyArray<{ name: string; fn: IFunction }>;
  /** Consumers of the table's stream, by name (infra/streams.ts). */
  streamConsumers: ReadonlyArray<{ name: string; fn: IFunction }>;
  /** 5xx answers of the API per 5 minutes above which the alarm fires. */
  api5xxThreshold: number;
  /** Percentage of channel jobs failing in 5 minutes above which the delivery alarm fires. */
  deliveryFailureRatePercent: number;
  alarmEmail?: string;
}

/** How far (ms) a stream consumer may fall behind before its alarm fires. */
export const STREAM_ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const { stage } = props;
    // enforceSSL: the topic's policy refuses a publisher that does not use TLS.
    this.topic = new Topic(this, 'Topic', { displayName: `notify-${stage} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const alarm = (alarmId: string, description: string, metric: IMetric, threshold = 0) => {
      const created = new Alarm(this, alarmId, {
        alarmName: `notify-${stage}-${alarmId}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        // No data means nothing happened: no message, no request, no error.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      const action = new SnsAction(this.topic);
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    for (const { name, queue } of props.deadLetterQueues) {
      alarm(
        `${name}-dlq-not-empty`,
        `A message of the ${name} queue failed every retry and waits in its dead-letter queue`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      );
    }

    alarm(
      'api-5xx',
      `More than ${props.api5xxThreshold} server errors (5xx) from the API in 5 minutes`,
      props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      props.api5xxThreshold,
    );

    // The service's own metric (lib/observability/metrics.ts): deliveries that failed for good,
    // whatever the channel or provider; the dashboard shows which.
    alarm(
      'delivery-failure-rate',
      `More than ${props.deliveryFailureRatePercent}% of the channel jobs that ended in 5 minutes failed ` +
        `(counted from ${FAILURE_RATE_MIN_JOBS} jobs)`,
      deliveryFailureRate(stage),
      props.deliveryFailureRatePercent,
    );

    for (const { name, fn } of props.consumers) {
      alarm(
        `${name}-consumer-errors`,
        `The consumer of the ${name} queue failed (its batch will be retried)`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      );
      alarm(
        `${name}-consumer-throttles`,
        `The consumer of the ${name} queue was throttled`,
        fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      );
    }

    for (const { name, fn } of props.streamConsumers) {
      alarm(
        `${name}-consumer-errors`,
        `The ${name} consumer of the table's stream failed (its records will be retried)`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      );
      // Records wait in the stream for at most 24 hours: a consumer falling behind loses events.
      alarm(
        `${name}-iterator-age`,
        `The ${name} consumer is more than 5 minutes behind the table's stream`,
        fn.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
        STREAM_ITERATOR_AGE_ALARM_MS,
      );
    }

    // No function has reserved concurrency, so a function is throttled only when the account's
    // concurrency in the region runs out: the account-wide metric is the signal, whatever the stage.
    alarm(
      'lambda-throttles',
      'Lambda throttled invocations in this account and region (concurrency limit reached)',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', period: FIVE_MINUTES, statistic: 'Sum' }),
    );

    alarm(
      'table-throttles',
      'DynamoDB throttled reads or writes on the table (on-demand burst or partition limits)',
      new MathExpression({
        expression: 'FILL(r, 0) + FILL(w, 0)',
        label: 'Throttle events',
        period: FIVE_MINUTES,
        usingMetrics: {
          r: props.table.metric('ReadThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
          w: props.table.metric('WriteThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
        },
      }),
    );
  }
}
