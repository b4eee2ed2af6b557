import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { TABLE } from '../../lib/store/table.ts';

// Least privilege per function, as explicit statements: the actions the code really sends (see
// the DynamoDB commands under lib/), on the table and its named indexes only. No wildcard action
// and no wildcard resource, so a read-only function can never write and nothing can Scan.

export type Access = 'none' | 'read' | 'write';

/** What GET handlers send: key lookups, queries (table and indexes) and batch reads. */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/**
 * What writers send besides reads. TransactWriteItems needs no action of its own: DynamoDB checks
 * the Put/Update/Delete/ConditionCheck action of each item. The idempotency records (Powertools)
 * use PutItem, UpdateItem and DeleteItem. A batch of PartiQL INSERTs (BatchExecuteStatement,
 * lib/store/insert-batch.ts) is checked as PartiQLInsert per statement; an INSERT writes one new
 * item by its key, so it grants no read and no Scan.
 */
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PartiQLInsert',
] as const;

/**
 * What active tracing sends (every function): segments and telemetry to X-Ray. IAM supports no
 * resource for these actions, so their statement is the one with resource `*`.
 */
export const TRACING_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

export function grantTracing(grantee: IGrantable): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: [...TRACING_ACTIONS], resources: ['*'] }));
}

/** Readers only unwrap the data keys of stored secrets; writers also make new ones. */
export const KMS_READ_ACTIONS = ['kms:Decrypt'] as const;
export const KMS_WRITE_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;

export function grantDataAccess(grantee: IGrantable, access: Access, resources: { table: ITableV2; secretsKey: IKey }): void {
  if (access === 'none') return;
  const { table, secretsKey } = resources;
  const role = grantee.grantPrincipal;
  const indexArns = TABLE.indexes.map((index) => `${table.tableArn}/index/${index.name}`);
  // Reads: items of the table, and queries on the named indexes (the only index operation used).
  role.addToPrincipalPolicy(new PolicyStatement({ actions: [...TABLE_READ_ACTIONS], resources: [table.tableArn] }));
  role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexArns }));
  if (access === 'write') {
    role.addToPrincipalPolicy(new PolicyStatement({ actions: [...TABLE_WRITE_ACTIONS], resources: [table.tableArn] }));
  }
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: [...(access === 'write' ? KMS_WRITE_ACTIONS : KMS_READ_ACTIONS)],
      resources: [secretsKey.keyArn],
    }),
  );
}

/** sqs:SendMessage on exactly the queues the function sends to (not grantSendMessages' extras). */
export function grantSend(grantee: IGrantable, queues: readonly IQueue[]): void {
  if (queues.length === 0) return;
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['sqs:SendMessage'], resources: queues.map((q) => q.queueArn) }),
  );
}
