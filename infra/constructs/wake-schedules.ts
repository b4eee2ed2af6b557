import { Aws } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENV } from '../../lib/config.ts';
import { grantSend } from './access.ts';
import { acknowledgeNag, nagArn } from './nag.ts';

// Long waits (lib/queue/wake-scheduler.ts): the stage's EventBridge Scheduler group, the role
// Scheduler assumes to send a due wake to the jobs queue, and what a function that schedules
// wakes needs: the settings, scheduler:CreateSchedule in this group only, and iam:PassRole on
// that one role, to Scheduler only. Nothing deletes a schedule: each is deleted by Scheduler
// once it has fired (ActionAfterCompletion DELETE), and a canceled trigger's wakes fire into
// canceled jobs, which do nothing. The queue is encrypted with SQS's own key, so the role needs
// no KMS grant.

export class WakeSchedules extends Construct {
  readonly groupName: string;
  readonly role: Role;
  /** The variables a scheduling function is given (besides the target queue's ARN). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: { stage: string; target: IQueue }) {
    super(scope, id);
    this.groupName = `notify-${props.stage}-waits`;
    const group = new CfnScheduleGroup(this, 'Group', { name: this.groupName });
    this.role = new Role(this, 'SchedulerRole', {
      // Only Scheduler, and only for schedules of this account (the confused-deputy guard).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } } }),
      description: `notify-${props.stage}: EventBridge Scheduler sends long waits' wakes to the jobs queue`,
    });
    grantSend(this.role, [props.target]);
    // By reference, so the group exists before any function that schedules in it.
    this.environment = { [ENV.wakeScheduleGroup]: group.ref, [ENV.wakeSchedulerRoleArn]: this.role.roleArn };
  }

  /** What a function's role needs to schedule wakes. */
  grantScheduling(grantee: Role): void {
    const schedules = `schedule/${this.groupName}/*`;
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule'],
        resources: [`arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:${schedules}`],
      }),
    );
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    acknowledgeNag(
      grantee,
      `AwsSolutions-IAM5[Resource::${nagArn('scheduler', schedules)}]`,
      "The stage's own schedule group: each wake is a schedule named at run time after its job and due time " +
        "(lib/queue/wake-scheduler.ts), so the group's prefix is the narrowest resource; only CreateSchedule is allowed.",
    );
  }
}
