import { CfnOutput, Duration } from 'aws-cdk-lib';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { pascalCase } from '../names.ts';
import { queues, type QueueDef } from '../queues.ts';
import { grantSend } from './access.ts';
import { WakeSchedules } from './wake-schedules.ts';

// The queues of infra/queues.ts, each with its dead-letter queue, the long waits' schedules on
// the jobs queue, and what a function that sends to some of them is given: their URLs (and the
// schedules' settings) and sqs:SendMessage on exactly those.
//
// Made in the scope handed in (the stack), keeping their logical ids (`<Name>Queue`,
// `<Name>Dlq`): each queue has a fixed name, and CloudFormation cannot replace a named resource.

/** SQS redrive rule every queue must meet (checked at synth). */
export const MIN_MAX_RECEIVE_COUNT = 5;

export interface ServiceQueue {
  def: QueueDef;
  /** Its name in logical ids (`events` → `Events`). */
  id: string;
  queue: Queue;
  dlq: Queue;
}

export class ServiceQueues {
  readonly all: readonly ServiceQueue[];
  /** Long waits of the jobs queue, scheduled with EventBridge Scheduler (lib/queue/wake-scheduler.ts). */
  readonly wakes: WakeSchedules;

  constructor(scope: Construct, props: { stage: string }) {
    const { stage } = props;
    this.all = queues.map((def) => {
      if (def.maxReceiveCount < MIN_MAX_RECEIVE_COUNT) {
        throw new Error(`Queue ${def.name}: maxReceiveCount must be at least ${MIN_MAX_RECEIVE_COUNT}`);
      }
      const id = pascalCase(def.name);
      const dlq = new Queue(scope, `${id}Dlq`, {
        queueName: `notify-${stage}-${def.name}-dlq`,
        // Longer than the source queue's retention, so a message is never lost on the way in.
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new Queue(scope, `${id}Queue`, {
        queueName: `notify-${stage}-${def.name}`,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      new CfnOutput(scope, `${id}QueueUrl`, { value: queue.queueUrl });
      return { def, id, queue, dlq };
    });
    this.wakes = new WakeSchedules(scope, 'Wakes', { stage, target: this.named('jobs').queue });
  }

  named(name: string): ServiceQueue {
    const found = this.all.find((q) => q.def.name === name);
    if (!found) throw new Error(`No queue ${name} in infra/queues.ts`);
    return found;
  }

  /** The variables a function that sends to these queues reads: their URLs, and the schedules' settings for a queue woken later. */
  environmentFor(names: readonly string[]): Record<string, string> {
    const environment: Record<string, string> = {};
    const sendsTo = names.map((name) => this.named(name));
    for (const { def, queue } of sendsTo) environment[def.urlEnv] = queue.queueUrl;
    for (const { def, queue } of sendsTo) {
      if (def.wakeArnEnv) Object.assign(environment, this.wakes.environment, { [def.wakeArnEnv]: queue.queueArn });
    }
    return environment;
  }

  /** sqs:SendMessage on these queues, and scheduling rights when one of them is woken later. */
  grantSend(role: Role, names: readonly string[]): void {
    grantSend(
      role,
      names.map((name) => this.named(name).queue),
    );
    if (names.some((name) => this.named(name).def.wakeArnEnv)) this.wakes.grantScheduling(role);
  }
}
