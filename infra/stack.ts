import { CfnOutput, RemovalPolicy, Stack, type NestedStack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ENV, SERVICE_NAME } from '../lib/config.ts';
import type { RouteDef } from '../lib/http/route.ts';
import type { ServiceLevel } from '../lib/rate-limits/policy.ts';
import { Alarms } from './constructs/alarms.ts';
import { Consumers } from './constructs/consumers.ts';
import { Dashboard } from './constructs/dashboard.ts';
import { DataStore } from './constructs/data-store.ts';
import { FunctionFactory } from './constructs/function-factory.ts';
import { HttpRoutes } from './constructs/http-routes.ts';
import { LiveSockets } from './constructs/live-sockets.ts';
import { ConsoleRoutes } from './constructs/console-routes.ts';
import { ServiceApi } from './constructs/service-api.ts';
import { ServiceQueues } from './constructs/service-queues.ts';
import { consoleRoute } from './routes/console.ts';
import { routeParts, type RoutePart } from './routes.ts';
import { pascalCase } from './names.ts';

// The stage's stack: it makes the shared pieces and hands each construct what it needs. Each
// construct owns what it makes and the grants that go with it: the data (constructs/data-store.ts)
// and the queues (service-queues.ts) say what a function gets to use them, the function factory
// (function-factory.ts) makes every function and its role from a spec, the routes, sockets,
// console and consumers (http-routes.ts, live-sockets.ts, console-routes.ts, consumers.ts) say
// what each of their functions needs, and the sockets grant their own PostToConnection.

export { LAMBDA_RUNTIME } from './constructs/function-factory.ts';
export { accessOf, routeTimeoutSeconds } from './constructs/http-routes.ts';
export { consumerTimeoutSeconds, VISIBILITY_PER_CONSUMER_TIMEOUT } from './constructs/consumers.ts';
export { STREAM_RETRY_ATTEMPTS } from './streams.ts';
export { MIN_MAX_RECEIVE_COUNT } from './constructs/service-queues.ts';

/** The only stage whose data is thrown away with its stack; every other stage keeps it. */
export const DISPOSABLE_STAGE = 'dev';

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

/** The variables every function gets besides the data's and its queues': the service, the stage, its settings. */
function serviceEnvironment(props: NotifyStackProps): Record<string, string> {
  const environment: Record<string, string> = {
    [ENV.serviceName]: SERVICE_NAME,
    // The stage dimension of the service's metrics (lib/observability/metrics.ts).
    [ENV.stage]: props.stage,
    LOG_LEVEL: 'INFO',
    NODE_OPTIONS: '--enable-source-maps',
  };
  for (const [key, value] of Object.entries(props.settings ?? {}) as [ServiceSetting, number][]) {
    environment[SERVICE_SETTINGS[key]] = String(value);
  }
  if (props.rateLimitServiceLevel) environment[ENV.rateLimitServiceLevel] = props.rateLimitServiceLevel;
  return environment;
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

    const data = new DataStore(this, { stage, keepData, removalPolicy, warmThroughput: props.tableWarmThroughput });
    const { table, secretsKey } = data;
    const queues = new ServiceQueues(this, { stage });

    const functions = new FunctionFactory(this, { data, queues, environment: serviceEnvironment(props), removalPolicy });

    const consumers = new Consumers(this, { stage, functions, queues, data });

    const { api } = new ServiceApi(this, {
      stage,
      throttle: props.apiThrottle ?? DEFAULT_API_THROTTLE,
      corsAllowedOrigins: props.corsAllowedOrigins,
      removalPolicy,
      functions,
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
          functions,
        }),
    );

    const deadLetterQueues = [
      ...queues.all.map((q) => ({ name: q.def.name, queue: q.dlq })),
      ...consumers.streamConsumers.map((s) => ({ name: `${s.def.name}-stream`, queue: s.dlq })),
    ];
    const deliveryFailureRatePercent = props.deliveryFailureRateAlarmPercent ?? DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT;
    const alarms = new Alarms(this, 'Alarms', {
      stage,
      api,
      table,
      deadLetterQueues,
      consumers: consumers.queueConsumers.map((c) => ({ name: c.name, fn: c.fn })),
      streamConsumers: consumers.streamConsumers.map((s) => ({ name: s.def.name, fn: s.fn })),
      api5xxThreshold: props.api5xxAlarmThreshold ?? DEFAULT_API_5XX_ALARM_THRESHOLD,
      deliveryFailureRatePercent,
      ...(props.alarmEmail && { alarmEmail: props.alarmEmail }),
    });

    // What was delivered and failed, how long it took, the queues and the API (docs/deploy.md).
    new Dashboard(this, 'Dashboard', {
      stage,
      api,
      queues: queues.all.map((q) => ({ name: q.def.name, queue: q.queue })),
      deadLetterQueues,
      deliveryFailureRatePercent,
    });

    // The inbox sockets (infra/ws-routes.ts), a nested stack; the live queue's consumer pushes to them.
    const sockets = new LiveSockets(this, 'Sockets', {
      stage,
      throttle: props.socketThrottle ?? DEFAULT_SOCKET_THROTTLE,
      accessLogs: props.socketAccessLogs ?? false,
      ...(props.socketDomain && { domain: props.socketDomain }),
      functions,
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
            functions,
          });

    this.nestedStacks = [sockets, ...this.routeStacks];
    consumers.pushTo(sockets);

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    consumers.useApiUrl(api.apiEndpoint);
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
