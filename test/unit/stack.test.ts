import { describe, it, expect } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { NotifyStack } from '#infra/stack.ts';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { TABLE } from '#lib/store/table.ts';

// Synthesize once; the empty bundling-stacks list skips esbuild, so this stays fast.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new NotifyStack(app, 'Notify-test', { stage: 'test' });
const template = Template.fromStack(stack);

type Resource = { Properties: Record<string, unknown> };
const consumers = queues.filter((q) => q.consumer);

describe('NotifyStack', () => {
  it('has one table with the keys, indexes and TTL of TABLE', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
    });
  });

  it('has one Lambda per route and per queue consumer, and one API route per route', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length + consumers.length);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>)
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(routeKeys).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('gives each queue a dead-letter queue with its maxReceiveCount', () => {
    // A source queue and a DLQ per definition.
    template.resourceCountIs('AWS::SQS::Queue', queues.length * 2);
    for (const q of queues) {
      template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: `notify-test-${q.name}`,
        VisibilityTimeout: q.visibilityTimeoutSeconds,
        RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: q.maxReceiveCount },
      });
      template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: `notify-test-${q.name}-dlq`,
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
    }
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', consumers.length);
    for (const q of consumers) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        BatchSize: q.batchSize,
        MaximumBatchingWindowInSeconds: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
  });

  it('sets the table, KMS key and queue URLs on every function', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>);
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(env)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'SECRETS_KMS_KEY_ID', ...queues.map((q) => q.urlEnv)]),
      );
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 512 });
    }
  });

  it('never grants dynamodb:Scan (nor a wildcard that would include it)', () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('dynamodb:Query');
    expect(policies).not.toContain('dynamodb:Scan');
    expect(policies).not.toMatch(/"dynamodb:\*"/);
  });
});
