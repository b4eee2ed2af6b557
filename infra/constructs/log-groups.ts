import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A log group of the stage (a function's, or an API stage's access log): kept one month, and
 * deleted or retained with the stack as the stage's data is.
 */
export const stageLogGroup = (scope: Construct, id: string, removalPolicy: RemovalPolicy): LogGroup =>
  new LogGroup(scope, id, { retention: RetentionDays.ONE_MONTH, removalPolicy });
