import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, Aws, CfnOutput, DockerImage, Duration, RemovalPolicy, Stack, type NestedStack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from './cors.ts';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, FilterCriteria, FilterRule, LayerVersion, Runtime, StartingPosition, Tracing } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV, SERVICE_NAME } from '../lib/config.ts';
import type { RouteDef } from '../lib/http/route.ts';
import type { ServiceLevel } from '../lib/rate-limits/policy.ts';
import { TABLE } from '../lib/store/table.ts';
import { BUNDLING, buildLazyPackages } from './bundling.ts';
import { grantDataAccess, grantSend, grantTracing, type Access } from './constructs/access.ts';
import { Alarms } from './constructs/alarms.ts';
import { Dashboard } from './constructs/dashboard.ts';
import { HttpRoutes } from './constructs/http-routes.ts';
import { LiveSockets } from './constructs/live-sockets.ts';
import { stageLogGroup } from './constructs/log-groups.ts';
import { WakeSchedules } from './constructs/wake-schedules.ts';
import { acknowledgeNag, nagArn } from './constructs/nag.ts';
import { ConsoleRoutes, type ConsoleFiles } from './constructs/console-routes.ts';
import { queues, VISIBILITY_PER_CONSUMER_TIMEOUT, type QueueDef } from './queues.ts';
import { streamConsumers } from './streams.ts';
import { consoleRoute } from './routes/console.ts';
import { fallbackRoute } from './routes/fallback.ts';
import { routeParts, type RoutePart } from './routes.ts';
import { pascalCase } from './names.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTPUT_FORMAT = { cjs: OutputFormat.CJS, esm: OutputFormat.ESM } as const;
/**
 * The newest Node LTS Lambda offers (cdk-nag's AwsSolutions-L1); infra/bundling.ts targets the
 * same Node. Named, not NODEJS_LATEST, whose value moves with aws-cdk-lib.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/** The only stage whose data is thrown away with its stack; every other stage keeps it. */
export const DISPOSABLE_STAGE = 'dev';

/** SQS redrive and Lambda retry rules every queue must meet (checked at synth). */
export const MIN_MAX_RECEIVE_COUNT = 5;
export { VISIBILITY_PER_CONSUMER_TIMEOUT };
const MIN_CONSUMER_TIMEOUT_SECONDS = 5;
/** Retries of a failing batch of stream records before its place goes to the stream's dead-letter queue. */
export const STREAM_RETRY_ATTEMPTS = 10;

export interface NotifyStackProps extends StackProps {
  stage: string;
  /** Steady requests per second and burst of the API's default stage (API Gateway throttling). */
  apiThrottle?: { rateLimit: number; burstLimit: number };
  /** The same for the WebSocket API's stage: client messages (pings) and connects per second. */
  socketThrottle?: { rateLimit: number; burstLimit: number };
  /**
   * Access logs on the WebSocket stage. API Gateway writes them with the account's CloudWatch Logs
   * role, a per-account setting a fresh account lacks (a deploy would fail), so they are opt-in.
   */
  socketAccessLogs?: boolean;
  /**
   * A custom domain for the WebSocket API (its ACM certificate in the stack's region), mapped so
   * the legacy in-app clients' fixed socket.io path reaches the stage (infra/constructs/live-sockets.ts).
   */
  socketDomain?: { domainName: string; certificateArn: string };
  /** 5xx answers per 5 minutes above which the API alarm fires. */
  api5xxAlarmThreshold?: number;
  /** Percentage of channel jobs failing in 5 minutes above which the delivery alarm fires. */
  deliveryFailureRateAlarmPercent?: number;
  /** Subscribed to the alarm topic when set (AWS sends a confirmation email first). */
  alarmEmail?: string;
  /** Service settings given to every function; the code's defaults apply to those not set. */
  settings?: Partial<Record<ServiceSetting, number>>;
  /**
   * The reference's service level whose API rate limits every environment of the stage gets
   * (lib/rate-limits/policy.ts); the code's default (`free`) when not set. The settings
   * `rateLimit<Category>PerSecond` replace single categories, an organization's own limits all.
   */
  rateLimitServiceLevel?: ServiceLevel;
  /** Origins whose pages may call the API (the inbox from a browser); default any (`*`). */
  corsAllowedOrigins?: string[];
  /**
   * Throughput the on-demand table serves from its first second (warm throughput): a new table
   * starts at 4,000 writes/s and doubles only after a peak, which would hold a first large
   * broadcast to ~400 deliveries/s (docs/performance.md).
   */
  tableWarmThroughput?: { writeUnitsPerSecond?: number; readUnitsPerSecond?: number };
  /**
   * Serve the console (console/, docs/console.md) at `/` and `/console/` of the API; default
   * true. `false` (`-c console=false`) leaves those routes out: they answer the API's 404.
   */
  console?: boolean;
}

/** The settings of lib/config.ts that a stage may choose, by their context key. */
export const SERVICE_SETTINGS = {
  activityRetentionDays: ENV.activityRetentionDays,
  messageRetentionDays: ENV.messageRetentionDays,
  providerTimeoutMs: ENV.providerTimeoutMs,
  providerRetryBackoffMs: ENV.providerBackoffMs,
  inboxMaxSnoozeHours: ENV.inboxMaxSnoozeHours,
  inboxMinSnoozeSeconds: ENV.inboxMinSnoozeSeconds,
  apiKeyGraceSeconds: ENV.apiKeyGraceSeconds,
  maxDeferDays: ENV.maxDeferDays,
  rateLimitTriggerPerSecond: ENV.rateLimitTriggerPerSecond,
  rateLimitConfigurationPerSecond: ENV.rateLimitConfigurationPerSecond,
  rateLimitGlobalPerSecond: ENV.rateLimitGlobalPerSecond,
} as const;
export type ServiceSetting = keyof typeof SERVICE_SETTINGS;

export const DEFAULT_API_THROTTLE = { rateLimit: 200, burstLimit: 400 };
/** A socket pings every 25 s: 500 messages/s is 12,500 open sockets' heartbeats. */
export const DEFAULT_SOCKET_THROTTLE = { rateLimit: 500, burstLimit: 1000 };
export const DEFAULT_API_5XX_ALARM_THRESHOLD = 5;
export const DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT = 5;

/** What a route's function may do with the data: its `access`, else read for GET, write otherwise. */
export const accessOf = (route: Pick<RouteDef, 'method' | 'access'>): Access => route.access ?? (route.method === 'GET' ? 'read' : 'write');

/** A route function's timeout, in seconds. */
const ROUTE_TIMEOUT_SECONDS = 10;
/**
 * A route that sends to the `outbound` queue waits for the answer (lib/bridge/outbound-ask.ts, 20 s at
 * most): its function runs longer, still inside API Gateway's 29 s.
 */
const ANSWER_WAITING_ROUTE_TIMEOUT_SECONDS = 25;
export const routeTimeoutSeconds = (route: Pick<RouteDef, 'sends'>): number =>
  route.sends?.includes('outbound') ? ANSWER_WAITING_ROUTE_TIMEOUT_SECONDS : ROUTE_TIMEOUT_SECONDS;

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

export class NotifyStack extends Stack {
  /** The inbox sockets' nested stack. */
  readonly sockets: LiveSockets;
  /** The HTTP routes' nested stacks, one per part of the route table (infra/routes.ts). */
  readonly routeStacks: readonly HttpRoutes[];
  /** Every nested stack: the sockets' and the routes'. */
  readonly nestedStacks: readonly NestedStack[];

  constructor(scope: Construct, id: string, props: NotifyStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const keepData = stage !== DISPOSABLE_STAGE;
    // Data outlives every stack but dev's: prod, staging, ... keep the table and the key on delete.
    const removalPolicy = keepData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const table = new TableV2(this, 'Table', {
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
      deletionProtection: keepData,
      removalPolicy,
      ...(props.tableWarmThroughput && { warmThroughput: props.tableWarmThroughput }),
    });

    const secretsKey = new Key(this, 'SecretsKey', {
      description: `notify-${stage}: wraps data keys of integration secrets`,
      enableKeyRotation: true,
      // A destroyed key makes every stored secret unreadable, so it stays wherever the table stays.
      removalPolicy,
    });

    const baseEnvironment: Record<string, string> = {
      [ENV.tableName]: table.tableName,
      [ENV.kmsKeyId]: secretsKey.keyArn,
      [ENV.serviceName]: SERVICE_NAME,
      // The stage dimension of the service's metrics (lib/observability/metrics.ts).
      [ENV.stage]: stage,
      LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
    };
    for (const [key, value] of Object.entries(props.settings ?? {}) as [ServiceSetting, number][]) {
      baseEnvironment[SERVICE_SETTINGS[key]] = String(value);
    }
    if (props.rateLimitServiceLevel) baseEnvironment[ENV.rateLimitServiceLevel] = props.rateLimitServiceLevel;

    const queueResources = queues.map((def) => {
      if (def.maxReceiveCount < MIN_MAX_RECEIVE_COUNT) {
        throw new Error(`Queue ${def.name}: maxReceiveCount must be at least ${MIN_MAX_RECEIVE_COUNT}`);
      }
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
      new CfnOutput(this, `${id}QueueUrl`, { value: queue.queueUrl });
      return { def, id, queue, dlq };
    });
    const queueNamed = (name: string) => {
      const found = queueResources.find((q) => q.def.name === name);
      if (!found) throw new Error(`No queue ${name} in infra/queues.ts`);
      return found;
    };

    // Long waits of the jobs queue are scheduled once with EventBridge Scheduler (lib/queue/wake-scheduler.ts).
    const wakes = new WakeSchedules(this, 'Wakes', { stage, target: queueNamed('jobs').queue });

    interface FunctionSpec {
      entry: string;
      timeout: Duration;
      access: Access;
      /** Logical names of the queues it sends to: it gets their URLs and sqs:SendMessage. */
      sends: readonly string[];
      /** Pushes frames to the inbox sockets (granted below, once the sockets exist): a role of its own. */
      pushesToSockets?: boolean;
    }

    // Functions with the same grants share one role (kept here, in the parent, for every stack).
    // A role with its policy per function would add two resources to the five a route costs, for
    // nothing: least privilege holds all the same, as a role carries exactly its functions' grants.
    const roles = new Map<string, Role>();
    // What AWSLambdaBasicExecutionRole grants, less CreateLogGroup (every function's group is made
    // here), on this stage's log groups only: CloudFormation names a group it makes
    // `<stack name>-<logical id>-<random>`, and a nested stack `<parent's name>-<logical id>-<random>`.
    const logGroups = `log-group:${this.stackName}-*`;
    const logGroupsArn = `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:${logGroups}`;
    const roleFor = (access: Access, sends: readonly string[], pushesToSockets = false): Role => {
      const names = [...new Set(sends)].sort();
      const key = [access, ...names, ...(pushesToSockets ? ['sockets'] : [])].map(pascalCase).join('');
      let role = roles.get(key);
      if (!role) {
        role = new Role(this, `${key}FunctionRole`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
        role.addToPrincipalPolicy(
          new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroupsArn] }),
        );
        acknowledgeNag(
          role,
          `AwsSolutions-IAM5[Resource::${nagArn('logs', logGroups)}]`,
          "This stage's own log groups: CloudFormation generates their names from the stack's, " +
            "and a role serves functions of several stacks, so the stack name's prefix is the narrowest pattern known before deploy " +
            "(listing every group would pass IAM's size limit of a role's inline policies). " +
            "A stage whose name starts with this one's and a dash also matches.",
        );
        // Active tracing: Lambda sends each invocation's segment to X-Ray, and the consumers' Tracer
        // their calls (lib/observability/consumer-handler.ts). X-Ray's write actions name no
        // resource (IAM supports none for them), so `*` is the only resource there is.
        grantTracing(role);
        acknowledgeNag(
          role,
          'AwsSolutions-IAM5[Resource::*]',
          "X-Ray's PutTraceSegments and PutTelemetryRecords support no resource-level permissions: " +
            '`*` is the only resource IAM accepts for them (active tracing).',
        );
        grantDataAccess(role, access, { table, secretsKey });
        grantSend(
          role,
          names.map((name) => queueNamed(name).queue),
        );
        if (names.some((name) => queueNamed(name).def.wakeArnEnv)) wakes.grantScheduling(role);
        roles.set(key, role);
      }
      return role;
    };

    // The packages functions load on first use (infra/bundling.ts, LAZY_PACKAGES), each built once
    // into one file of this layer, which every function has: Lambda's NODE_PATH holds
    // /opt/nodejs/node_modules, where a bundle's require() finds them.
    const lazyPackages = new LayerVersion(this, 'LazyPackages', {
      code: Code.fromAsset(path.join(REPO_ROOT, 'infra', 'bundling'), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never pulled: esbuild runs here (local bundling), as for the functions.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:24-slim'),
          local: {
            tryBundle: (outputDir) => {
              buildLazyPackages(path.join(outputDir, 'nodejs', 'node_modules'));
              return true;
            },
          },
        },
      }),
      compatibleRuntimes: [LAMBDA_RUNTIME],
      compatibleArchitectures: [Architecture.ARM_64],
      description: 'Packages the functions load on first use (infra/bundling.ts, LAZY_PACKAGES)',
    });

    /** A function in `scope` (this stack, or a nested stack of it); `files` adds what afterBundling copies into its asset. */
    const makeFunction = (id: string, spec: FunctionSpec, scope: Construct = this, files?: ConsoleFiles): NodejsFunction => {
      const sendsTo = spec.sends.map(queueNamed);
      const environment = { ...baseEnvironment, ...files?.environment };
      for (const { def, queue } of sendsTo) environment[def.urlEnv] = queue.queueUrl;
      for (const { def, queue } of sendsTo) {
        if (def.wakeArnEnv) Object.assign(environment, wakes.environment, { [def.wakeArnEnv]: queue.queueArn });
      }
      const fn = new NodejsFunction(scope, id, {
        entry: path.join(REPO_ROOT, spec.entry),
        handler: 'handler',
        projectRoot: REPO_ROOT,
        depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
        runtime: LAMBDA_RUNTIME,
        architecture: Architecture.ARM_64,
        memorySize: 512,
        timeout: spec.timeout,
        environment,
        // X-Ray: Lambda's own segment for every function; the consumers add their calls (Tracer).
        tracing: Tracing.ACTIVE,
        layers: [lazyPackages],
        role: roleFor(spec.access, spec.sends, spec.pushesToSockets),
        // An explicit group instead of logRetention, which would add a custom-resource Lambda.
        logGroup: stageLogGroup(scope, `${id}Logs`, removalPolicy),
        bundling: {
          // infra/bundling.ts. `#lib/...` subpath imports resolve through package.json
          // "imports", which esbuild follows.
          format: OUTPUT_FORMAT[BUNDLING.format],
          target: BUNDLING.target,
          mainFields: [...BUNDLING.mainFields],
          minify: BUNDLING.minify,
          externalModules: [...BUNDLING.external],
          esbuildArgs: {
            '--alias': Object.entries(BUNDLING.alias).map(([name, path]) => `${name}=${path}`),
            '--supported': Object.entries(BUNDLING.supported).map(([feature, on]) => `${feature}=${on}`),
          },
          sourceMap: true,
          sourcesContent: false,
          ...(files && {
            commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: files.afterBundling },
          }),
        },
      });
      return fn;
    };

    const consumers: { name: string; fn: NodejsFunction }[] = [];
    for (const { def, id, queue } of queueResources) {
      if (!def.consumer) continue;
      // SQS wants the visibility timeout at least 6x the function timeout (retries within it).
      // Consumers write (they run the pipeline) and send to the queues their QueueDef names.
      const consumer = makeFunction(`${id}Consumer`, {
        entry: def.consumer,
        timeout: Duration.seconds(consumerTimeoutSeconds(def)),
        access: 'write',
        sends: def.sends ?? [],
        pushesToSockets: def.pushesToSockets ?? false,
      });
      consumers.push({ name: def.name, fn: consumer });
      consumer.addEventSource(
        new SqsEventSource(queue, {
          batchSize: def.batchSize,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
        }),
      );
    }

    // The table's stream consumers (infra/streams.ts): each woken only for the items its filter
    // names. A batch that keeps failing is split to find the record at fault, retried, and after
    // its retries that record's place in the stream goes to a dead-letter queue, so the shard
    // moves on; the records themselves stay readable in the stream for 24 hours.
    const streamResources = streamConsumers.map((def) => {
      const id = pascalCase(def.name);
      const dlq = new Queue(this, `${id}StreamDlq`, {
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
      const fn = makeFunction(`${id}StreamConsumer`, {
        entry: def.consumer,
        timeout: Duration.seconds(60),
        access: def.access ?? 'read',
        sends: def.sends,
      });
      fn.addEventSource(
        new DynamoEventSource(table, {
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

    const throttle = props.apiThrottle ?? DEFAULT_API_THROTTLE;
    const api = new HttpApi(this, 'Api', {
      apiName: `notify-${stage}`,
      createDefaultStage: false,
      // Browsers call the inbox routes from the product's pages (infra/cors.ts).
      corsPreflight: {
        allowOrigins: props.corsAllowedOrigins?.length ? props.corsAllowedOrigins : ['*'],
        allowHeaders: [...CORS_ALLOWED_HEADERS],
        allowMethods: CORS_ALLOWED_METHODS.map((m) => CorsHttpMethod[m]),
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      },
    });
    // The default stage, made here because HttpApi's own has no throttling settings. Each request
    // is logged in API Gateway's default access-log format (request id, caller IP, route, status).
    new HttpStage(this, 'ApiDefaultStage', {
      httpApi: api,
      autoDeploy: true,
      throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(stageLogGroup(this, 'ApiAccessLogs', removalPolicy)) },
    });
    // Each part of the route table in a nested stack of its own (infra/constructs/http-routes.ts):
    // five resources a route, and over a hundred routes, do not fit the 500 of one stack.
    this.routeStacks = (Object.entries(routeParts) as [RoutePart, readonly RouteDef[]][]).map(
      ([part, partRoutes]) =>
        new HttpRoutes(this, `${pascalCase(part)}Routes`, {
          stage,
          part,
          routes: partRoutes,
          api,
          makeFunction: (scope, id, route) =>
            makeFunction(
              id,
              {
                entry: route.handler,
                timeout: Duration.seconds(routeTimeoutSeconds(route)),
                access: accessOf(route),
                sends: route.sends ?? [],
              },
              scope,
            ),
        }),
    );

    // What no route serves: 404 in the service's error body (infra/routes/fallback.ts).
    const fallbackId = pascalCase(fallbackRoute.operationId);
    const fallback = makeFunction(fallbackId, {
      entry: fallbackRoute.handler,
      timeout: Duration.seconds(10),
      access: fallbackRoute.access,
      sends: [],
    });
    const fallbackRouteResource = new HttpRoute(this, `${fallbackId}Route`, {
      httpApi: api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration(`${fallbackId}Integration`, fallback),
    });
    acknowledgeNag(
      fallbackRouteResource,
      'AwsSolutions-APIG4',
      'Answers every unmatched request 404 in the standard error body; its function reads and writes nothing (access none).',
    );

    const deadLetterQueues = [
      ...queueResources.map((q) => ({ name: q.def.name, queue: q.dlq })),
      ...streamResources.map((s) => ({ name: `${s.def.name}-stream`, queue: s.dlq })),
    ];
    const deliveryFailureRatePercent = props.deliveryFailureRateAlarmPercent ?? DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT;
    const alarms = new Alarms(this, 'Alarms', {
      stage,
      api,
      table,
      deadLetterQueues,
      consumers,
      streamConsumers: streamResources.map((s) => ({ name: s.def.name, fn: s.fn })),
      api5xxThreshold: props.api5xxAlarmThreshold ?? DEFAULT_API_5XX_ALARM_THRESHOLD,
      deliveryFailureRatePercent,
      ...(props.alarmEmail && { alarmEmail: props.alarmEmail }),
    });

    // What was delivered and failed, how long it took, the queues and the API (docs/deploy.md).
    new Dashboard(this, 'Dashboard', {
      stage,
      api,
      queues: queueResources.map((q) => ({ name: q.def.name, queue: q.queue })),
      deadLetterQueues,
      deliveryFailureRatePercent,
    });

    // The inbox sockets (infra/ws-routes.ts), a nested stack; the live queue's consumer pushes to them.
    const sockets = new LiveSockets(this, 'Sockets', {
      stage,
      throttle: props.socketThrottle ?? DEFAULT_SOCKET_THROTTLE,
      accessLogs: props.socketAccessLogs ?? false,
      ...(props.socketDomain && { domain: props.socketDomain }),
      makeFunction: (scope, id, entry, access, sends) => makeFunction(id, { entry, timeout: Duration.seconds(10), access, sends }, scope),
      alarmTopic: alarms.topic,
      removalPolicy,
    });
    this.sockets = sockets;
    // The console (infra/routes/console.ts): its page and files, from one function on this origin.
    const consoleSite =
      props.console === false
        ? undefined
        : new ConsoleRoutes(this, pascalCase(consoleRoute.operationId), {
            api,
            // Its page learns there where the live inbox's sockets are (GET /console/config.json).
            socketUrl: sockets.url,
            paths: consoleRoute.paths,
            makeFunction: (scope, id, files) =>
              makeFunction(
                id,
                { entry: consoleRoute.handler, timeout: Duration.seconds(10), access: consoleRoute.access, sends: [] },
                scope,
                files,
              ),
          });

    this.nestedStacks = [sockets, ...this.routeStacks];
    for (const { name, fn } of consumers) {
      if (!queueNamed(name).def.pushesToSockets) continue;
      fn.addEnvironment(ENV.liveCallbackUrl, sockets.callbackUrl);
      sockets.grantPostToConnection(fn.role!);
    }

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    // The jobs consumer writes tracked links and open pixels (lib/engagement) on the API's own
    // URL; the consumers run behind no route, so this makes no cycle.
    for (const { fn } of consumers) fn.addEnvironment(ENV.publicUrl, api.apiEndpoint);
    new CfnOutput(this, 'SocketUrl', {
      value: sockets.url,
      description: 'socketUrl of @novu/js and <Inbox /> (with socketOptions: { socketType: "cloud" })',
    });
    if (props.socketDomain && sockets.domainTarget)
      new CfnOutput(this, 'SocketDomainTarget', {
        value: sockets.domainTarget,
        description:
          `Point ${props.socketDomain.domainName} here (CNAME); ` +
          `socketUrl wss://${props.socketDomain.domainName} for the legacy in-app clients`,
      });
    if (consoleSite)
      new CfnOutput(this, 'ConsoleUrl', {
        value: `${api.apiEndpoint}/`,
        description: "The console: sign in with an environment's API key (docs/console.md)",
      });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SecretsKeyArn', { value: secretsKey.keyArn });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
  }
}
