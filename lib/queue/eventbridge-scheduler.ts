import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { ENV, required } from '../config.ts';
import { withoutSdkLogging } from '../sdk-logging.ts';
import { sdkCallBounds } from '../sdk-timeouts.ts';
import { WAKE_QUEUE_ARN_ENV } from './send-batch.ts';
import type { Wake, WakeScheduler } from './wake.ts';

// Long waits in AWS: one EventBridge Scheduler one-time schedule per wake, in the stage's group,
// whose target is the queue (the message body as the SQS message), sent with the role the stack
// made for it and deleted by Scheduler once it has fired. Loaded only when a wait is scheduled.

export class EventBridgeWakeScheduler implements WakeScheduler {
  private readonly client = withoutSdkLogging(new SchedulerClient(sdkCallBounds()));

  constructor(private readonly group: string) {}

  async schedule(wake: Wake): Promise<void> {
    const arnEnv = WAKE_QUEUE_ARN_ENV[wake.queue];
    if (!arnEnv) throw new Error(`Queue ${wake.queue} takes no scheduled wakes`);
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: wake.name,
          GroupName: this.group,
          ScheduleExpression: atExpression(wake.at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: required(arnEnv), RoleArn: required(ENV.wakeSchedulerRoleArn), Input: JSON.stringify(wake.body) },
        }),
      );
    } catch (error) {
      // Already scheduled: by an earlier run of the same decision.
      if (!(error instanceof ConflictException)) throw error;
    }
  }
}

/** `at(yyyy-mm-ddThh:mm:ss)`, in UTC. */
export const atExpression = (at: Date): string => `at(${at.toISOString().slice(0, 19)})`;
