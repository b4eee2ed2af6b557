import type { Construct } from 'constructs';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ENV } from '../../lib/config.ts';
import { TABLE } from '../../lib/store/table.ts';
import { grantDataAccess, type Access } from './access.ts';

// The stage's data: the one table (lib/store/table.ts) and the key that wraps integration
// secrets' data keys, with what a function is given to use them (their names, its grants).
//
// Made in the scope handed in (the stack) under the logical ids `Table` and `SecretsKey`, not
// under a construct of its own: a construct would prefix the ids, and a table with a new logical
// id is a new, empty table. The same holds for the queues (service-queues.ts).

export interface DataStoreProps {
  stage: string;
  /** Keep the table's deletion protection on (every stage but the disposable one). */
  keepData: boolean;
  /** RETAIN where data is kept: the table and the key outlive the stack. */
  removalPolicy: RemovalPolicy;
  /** Throughput the on-demand table serves from its first second (NotifyStackProps). */
  warmThroughput?: { writeUnitsPerSecond?: number; readUnitsPerSecond?: number };
}

export class DataStore {
  readonly table: TableV2;
  readonly secretsKey: Key;

  constructor(scope: Construct, props: DataStoreProps) {
    this.table = new TableV2(scope, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      globalSecondaryIndexes: TABLE.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        // ALL (the default) unless the definition names the attributes the index holds.
        ...(index.projection === 'ALL' ? {} : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      })),
      timeToLiveAttribute: TABLE.ttlAttribute,
      dynamoStream: StreamViewType[TABLE.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.keepData,
      removalPolicy: props.removalPolicy,
      ...(props.warmThroughput && { warmThroughput: props.warmThroughput }),
    });

    this.secretsKey = new Key(scope, 'SecretsKey', {
      description: `notify-${props.stage}: wraps data keys of integration secrets`,
      enableKeyRotation: true,
      // A destroyed key makes every stored secret unreadable, so it stays wherever the table stays.
      removalPolicy: props.removalPolicy,
    });
  }

  /** The variables every function reads to find the table and the key. */
  get environment(): Record<string, string> {
    return { [ENV.tableName]: this.table.tableName, [ENV.kmsKeyId]: this.secretsKey.keyArn };
  }

  /** What a function of that access may do with the table and the key (access.ts). */
  grant(grantee: IGrantable, access: Access): void {
    grantDataAccess(grantee, access, this);
  }
}
