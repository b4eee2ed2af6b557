import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV } from '../../lib/config.ts';
import { pascalCase } from '../names.ts';
import { VISIBILITY_PER_CONSUMER_TIMEOUT, type QueueDef } from '../queues.ts';
import { STREAM_RETRY_ATTEMPTS, streamConsumers, type StreamConsumerDef } from '../streams.ts';
import type { DataStore } from './data-store.ts';
import type { FunctionMaker } from './function-factory.ts';
import type { LiveSockets } from './live-sockets.ts';
import { acknowledgeNag } from './nag.ts';
import type { ServiceQueues } from './service-queues.ts';

// The functions no route calls: each queue's consumer (infra/queues.ts) and the table's stream
// consumers (infra/streams.ts), with their event sources and the stream consumers' dead-letter
// queues. Made in the stack, under the logical ids they have always had.

/** SQS retry rule: the visibility timeout is at least this many times the consumer's timeout (checked at synth). */
export { VISIBILITY_PER_CONSUMER_TIMEOUT };
const MIN_CONSUMER_TIMEOUT_SECONDS = 5;

/** The consumer's timeout: a sixth of the visibility timeout, so SQS never redelivers a running batch. */
export function consumerTimeoutSeconds(def: QueueDef): number {
  const timeout = Math.floor(def.visibilityTimeoutSeconds / VISIBILITY_PER_CONSUMER_TIMEOUT);
  if (timeout < MIN_CONSUMER_TIMEOUT_SECONDS) {
    throw new Error(
      `Queue ${def.name}: visibility timeout ${def.visibilityTimeoutSeconds}s leaves its consumer under ` +
        `${MIN_CONSUMER_TIMEOUT_SECONDS}s (it must be at least ${VISIBILITY_PER_CONSUMER_TIMEOUT}x the consumer timeout)`,
    );
  }
  return timeout;
}

export interface ConsumersProps {
  stage: string;
  functions: FunctionMaker;
  queues: ServiceQueues;
  data: DataStore;
}

export class Consumers {
  /** Each queue's consumer, by the queue's name. */
  readonly queueConsumers: readonly { name: string; def: QueueDef; fn: NodejsFunction }[];
  /** Each stream consumer, with the dead-letter queue of its failed records' places. */
  readonly streamConsumers: readonly { def: StreamConsumerDef; fn: NodejsFunction; dlq: Queue }[];

  constructor(scope: Construct, props: ConsumersProps) {
    const { stage, functions } = props;
    this.queueConsumers = props.queues.all.flatMap(({ def, id, queue }) => {
      if (!def.consumer) return [];
      // SQS wants the visibility timeout at least 6x the function timeout (retries within it).
      // Consumers write (they run the pipeline) and send to the queues their QueueDef names.
      const fn = functions.make(scope, `${id}Consumer`, {
        entry: def.consumer,
        timeout: Duration.seconds(consumerTimeoutSeconds(def)),
        access: 'write',
        sends: def.sends ?? [],
        pushesToSockets: def.pushesToSockets ?? false,
      });
      fn.addEventSource(
        new SqsEventSource(queue, {
          batchSize: def.batchSize,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
        }),
      );
      return [{ name: def.name, def, fn }];
    });

    // The table's stream consumers (infra/streams.ts): each woken only for the items its filter
    // names. A batch that keeps failing is split to find the record at fault, retried, and after
    // its retries that record's place in the stream goes to a dead-letter queue, so the shard
    // moves on; the records themselves stay readable in the stream for 24 hours.
    this.streamConsumers = streamConsumers.map((def) => {
      const id = pascalCase(def.name);
      const dlq = new Queue(scope, `${id}StreamDlq`, {
        queueName: `notify-${stage}-${def.name}-stream-dlq`,
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      acknowledgeNag(
        dlq,
        'AwsSolutions-SQS3',
        "A dead-letter queue itself: the stream's event source mapping sends a failed record's place here (onFailure), " +
          "which cdk-nag does not count as a queue's redrive target.",
      );
      const fn = functions.make(scope, `${id}StreamConsumer`, {
        entry: def.consumer,
        timeout: Duration.seconds(60),
        access: def.access ?? 'read',
        sends: def.sends,
      });
      fn.addEventSource(
        new DynamoEventSource(props.data.table, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: def.batchSize,
          maxBatchingWindow: Duration.seconds(1),
          retryAttempts: STREAM_RETRY_ATTEMPTS,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          onFailure: new SqsDlq(dlq),
          filters: def.filters.map((f) =>
            FilterCriteria.filter({
              dynamodb: { Keys: { sk: { S: f.prefix !== undefined ? FilterRule.beginsWith(f.prefix) : FilterRule.isEqual(f.equals!) } } },
            }),
          ),
        }),
      );
      return { def, fn, dlq };
    });
  }

  /** The consumers that push to the inbox sockets get their callback URL, and the sockets' grant (live-sockets.ts). */
  pushTo(sockets: LiveSockets): void {
    for (const { def, fn } of this.queueConsumers) {
      if (!def.pushesToSockets) continue;
      fn.addEnvironment(ENV.liveCallbackUrl, sockets.callbackUrl);
      sockets.grantPostToConnection(fn.role!);
    }
  }

  /**
   * The jobs consumer writes tracked links and open pixels (lib/engagement) on the API's own URL;
   * the consumers run behind no route, so this makes no cycle.
   */
  useApiUrl(url: string): void {
    for (const { fn } of this.queueConsumers) fn.addEnvironment(ENV.publicUrl, url);
  }
}
