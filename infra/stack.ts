import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV } from '../lib/config.ts';
import { TABLE } from '../lib/store/table.ts';
import { queues } from './queues.ts';
import { routes } from './routes.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every DynamoDB action the code uses. Listed explicitly because grantReadWriteData includes
 * Scan, and the project rule is that no Scan exists anywhere.
 */
const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];

/** Envelope encryption of integration secrets: a data key per secret, wrapped by the KMS key. */
const KMS_ACTIONS = ['kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey'];

export interface NotifyStackProps extends StackProps {
  stage: string;
}

const pascalCase = (s: string): string => s.replace(/(^|[-_\s]+)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

export class NotifyStack extends Stack {
  constructor(scope: Construct, id: string, props: NotifyStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const prod = stage === 'prod';
    // Data outlives a prod stack; dev stacks clean up after themselves.
    const removalPolicy = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      globalSecondaryIndexes: TABLE.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        // ProjectionType.ALL is the default; single-table reads need the whole item.
      })),
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: prod,
      removalPolicy,
    });

    const secretsKey = new Key(this, 'SecretsKey', {
      description: `notify-${stage}: wraps data keys of integration secrets`,
      enableKeyRotation: true,
      // A destroyed key makes every stored secret unreadable, so keys are never deleted with the stack in prod.
      removalPolicy,
    });

    const environment: Record<string, string> = {
      [ENV.tableName]: table.tableName,
      [ENV.kmsKeyId]: secretsKey.keyArn,
      POWERTOOLS_SERVICE_NAME: 'notify',
      LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
    };

    const queueResources = queues.map((def) => {
      const id = pascalCase(def.name);
      const dlq = new Queue(this, `${id}Dlq`, {
        queueName: `notify-${stage}-${def.name}-dlq`,
        // Longer than the source queue's retention, so a message is never lost on the way in.
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new Queue(this, `${id}Queue`, {
        queueName: `notify-${stage}-${def.name}`,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      environment[def.urlEnv] = queue.queueUrl;
      new CfnOutput(this, `${id}QueueUrl`, { value: queue.queueUrl });
      return { def, id, queue };
    });

    const makeFunction = (id: string, entry: string, timeout: Duration): NodejsFunction => {
      const fn = new NodejsFunction(this, id, {
        entry: path.join(REPO_ROOT, entry),
        handler: 'handler',
        projectRoot: REPO_ROOT,
        depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: 512,
        timeout,
        environment,
        // An explicit group instead of logRetention, which would add a custom-resource Lambda.
        logGroup: new LogGroup(this, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy }),
        bundling: {
          format: OutputFormat.ESM,
          target: 'node22',
          mainFields: ['module', 'main'],
          // CJS dependencies bundled into ESM still call require().
          banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
          minify: true,
          sourceMap: true,
          sourcesContent: false,
          // The nodejs22.x runtime ships SDK v3. `#lib/...` subpath imports resolve through
          // package.json "imports", which esbuild follows.
          externalModules: ['@aws-sdk/*'],
        },
      });
      table.grant(fn, ...TABLE_ACTIONS); // covers the table and its indexes
      secretsKey.grant(fn, ...KMS_ACTIONS);
      for (const { queue } of queueResources) queue.grantSendMessages(fn);
      return fn;
    };

    for (const { def, id, queue } of queueResources) {
      if (!def.consumer) continue;
      // SQS wants the visibility timeout at least 6x the function timeout (retries within it).
      const timeout = Duration.seconds(Math.max(5, Math.floor(def.visibilityTimeoutSeconds / 6)));
      const consumer = makeFunction(`${id}Consumer`, def.consumer, timeout);
      consumer.addEventSource(
        new SqsEventSource(queue, {
          batchSize: def.batchSize,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
        }),
      );
    }

    const api = new HttpApi(this, 'Api', { apiName: `notify-${stage}` });
    for (const route of routes) {
      const id = pascalCase(route.operationId);
      const fn = makeFunction(id, route.handler, Duration.seconds(10));
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn),
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }
}
