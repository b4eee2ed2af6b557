import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV } from '#lib/config.ts';
import { routes } from '../routes.ts';
import { consumerTimeoutMs, queues } from '../queues.ts';
import { socketAuthorizer, socketRoutes } from '../ws-routes.ts';
import { startApiGateway, type LocalApi } from './api-gateway.ts';
import { startDynamoDbLocal, startSqsEmulator, type Emulator } from './emulators.ts';
import { loadHandler } from './handlers.ts';
import { ensureQueues, ensureTable } from './resources.ts';
import { startPoller, type Poller } from './sqs-poller.ts';
import { startWakePoller } from './wake-poller.ts';
import { startStreamPoller } from './stream-poller.ts';
import { streamConsumers } from '../streams.ts';
import { startWebSocketApi, type LocalSocketApi } from './websocket-api.ts';
import { withoutSdkLogging } from '#lib/sdk-logging.ts';
import { sdkCallBounds } from '#lib/sdk-timeouts.ts';
import { CACHED_MIDDLEWARE } from '#lib/sdk-middleware-cache.ts';
import { CONSOLE_DIST } from './console-build.ts';
import { writeOpenApiDocument } from '../openapi-document.ts';

const DEFAULT_CONSUMER_CONCURRENCY = 4;

type LocalFaults = typeof import('./faults.ts');

// The whole service on this machine: emulators (or external endpoints), the table and queues,
// the route table served over HTTP, the socket route table over WebSocket, and the queues
// polled into their consumers. Used by
// `npm start` and by the test setup, so both run exactly the same stack.

export interface LocalStackOptions {
  /** Folder for local state (the secrets key file). */
  stateDir: string;
  tableName?: string;
  /** Serve the API on this port (0 = any free port); omit to serve no API. */
  port?: number;
  /** Serve the WebSocket API (inbox sockets and their management API) on this port (0 = any free port); omit for none. */
  socketPort?: number;
  host?: string;
  /** Use this DynamoDB instead of starting DynamoDB Local; `aws` = the SDK's default (real AWS). */
  dynamoEndpoint?: string;
  /** A DynamoDB Local started here lives minutes, not hours (a test file's): see `DynamoDbLocalOptions`. */
  shortLivedEmulator?: boolean;
  /** Use this SQS instead of starting fauxqs; `aws` = the SDK's default (real AWS). */
  sqsEndpoint?: string;
  /** Poll the queues into their consumer handlers (default true). */
  consumers?: boolean;
  /** Batches each consumer handles at once (Lambda runs several instances); default 4. */
  consumerConcurrency?: number;
  onConsumerError?: (error: unknown) => void;
  /** Every queue's visibility timeout instead of its own (tests that wait for redeliveries). */
  visibilityTimeoutSeconds?: number;
  /** Install the fault layer (infra/local/faults.ts) that tests switch; never for `npm start`. */
  faults?: boolean;
  /**
   * Waits longer than this many seconds are scheduled (the table's wakes, sent on by the wake
   * poller) instead of sent with an SQS delay; default 900, as in AWS. Tests shorten it.
   */
  longWaitSeconds?: number;
}

export interface LocalStack {
  apiUrl?: string;
  /** `ws://…`: the `socketUrl` a client is given. */
  socketUrl?: string;
  /** The environment the handlers run with (also set on this process). */
  env: Record<string, string>;
  queueUrls: Record<string, string>;
  stop(): Promise<void>;
}

const LOCAL_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const started: Emulator[] = [];
  const pollers: Poller[] = [];
  let dynamoClient: DynamoDBClient | undefined;
  let api: LocalApi | undefined;
  let sockets: LocalSocketApi | undefined;
  const stop = async () => {
    await api?.close();
    await sockets?.close();
    await Promise.all(pollers.map((p) => p.stop()));
    dynamoClient?.destroy();
    await Promise.all(started.map((e) => e.stop()));
  };

  // Lambda's Node 24 runtime will be the target; the SDK's Node 20 notice is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  try {
    mkdirSync(options.stateDir, { recursive: true });
    const env: Record<string, string> = {
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      DDB_LOCAL_TELEMETRY: '0',
      [ENV.tableName]: options.tableName ?? 'notify-local',
      [ENV.secretsKeyFile]: join(options.stateDir, 'secrets.key'),
      // Demo email/sms providers deliver here (JSON lines per channel).
      [ENV.deliverySinkDir]: join(options.stateDir, 'outbox'),
      // Customer URLs (webhooks, providers' base URLs) may point at this machine locally; never in AWS.
      [ENV.allowPrivateNetworks]: process.env[ENV.allowPrivateNetworks] ?? 'true',
      // Long waits are kept in the table and sent on by the wake poller (EventBridge Scheduler in AWS).
      [ENV.localWakes]: 'table',
      ...(options.longWaitSeconds !== undefined && { [ENV.longWaitSeconds]: String(options.longWaitSeconds) }),
      // The reference's highest API rate limits (6,000 triggers/s per environment): this machine
      // never reaches them, so neither the tests nor the bench are limited unless they ask.
      [ENV.rateLimitServiceLevel]: process.env[ENV.rateLimitServiceLevel] ?? 'unlimited',
      // The console's built files (`npm install` and `npm start` build them: console-build.ts).
      [ENV.consoleDir]: process.env[ENV.consoleDir] ?? CONSOLE_DIST,
    };
    const usesAws = options.dynamoEndpoint === 'aws' || options.sqsEndpoint === 'aws';
    if (!usesAws) Object.assign(env, LOCAL_CREDENTIALS);

    // Each service: real AWS (`aws`: the SDK's own endpoint), a given endpoint, or an emulator started here.
    const endpointOf = async (option: string | undefined, start: () => Promise<Emulator>) => {
      if (option) return option;
      const emulator = await start();
      started.push(emulator);
      return emulator.endpoint;
    };
    if (options.dynamoEndpoint !== 'aws') {
      env.AWS_ENDPOINT_URL_DYNAMODB = await endpointOf(options.dynamoEndpoint, () =>
        startDynamoDbLocal({ shortLived: options.shortLivedEmulator ?? false }),
      );
    }
    if (options.sqsEndpoint !== 'aws') {
      env.AWS_ENDPOINT_URL_SQS = await endpointOf(options.sqsEndpoint, () => startSqsEmulator());
    }
    Object.assign(process.env, env);

    dynamoClient = withoutSdkLogging(new DynamoDBClient(sdkCallBounds()));
    await ensureTable(dynamoClient, env[ENV.tableName]!);

    // The pollers' own client (the event source mappings' receives and deletes), not the service's.
    const sqsClient = withoutSdkLogging(
      new SQSClient({ useQueueUrlAsEndpoint: options.sqsEndpoint === 'aws', ...sdkCallBounds(), ...CACHED_MIDDLEWARE }),
    );
    const visibility = options.visibilityTimeoutSeconds;
    const queueDefs = visibility === undefined ? queues : queues.map((q) => ({ ...q, visibilityTimeoutSeconds: visibility }));
    const queueUrls = await ensureQueues(sqsClient, env[ENV.tableName]!, queueDefs);
    for (const def of queues) env[def.urlEnv] = queueUrls[def.name]!;
    Object.assign(process.env, env);

    // Before the consumers start: the live consumer sends frames to its management API.
    if (options.socketPort !== undefined) {
      sockets = await startWebSocketApi({
        routes: socketRoutes,
        authorizer: socketAuthorizer,
        port: options.socketPort,
        ...(options.host && { host: options.host }),
      });
      env[ENV.liveCallbackUrl] = sockets.callbackUrl;
      env[ENV.socketUrl] = sockets.url;
      Object.assign(process.env, env);
    }

    let faults: LocalFaults | undefined;
    if (options.faults) {
      faults = await import('./faults.ts');
      faults.installFaults();
    }
    if (options.consumers !== false) {
      for (const def of queueDefs) {
        if (!def.consumer) continue;
        pollers.push(
          startPoller({
            client: sqsClient,
            queueUrl: queueUrls[def.name]!,
            handler: await loadHandler(def.consumer, def.sends),
            name: `${def.name}-consumer`,
            batchSize: def.batchSize,
            timeoutMs: consumerTimeoutMs(def.visibilityTimeoutSeconds),
            concurrency: options.consumerConcurrency ?? DEFAULT_CONSUMER_CONCURRENCY,
            ...(options.onConsumerError && { onError: options.onConsumerError }),
            ...(faults && { faults: faults.invokeWithFaults }),
          }),
        );
      }
      pollers.push(startWakePoller({ ...(options.onConsumerError && { onError: options.onConsumerError }) }));
      pollers.push(
        await startStreamPoller({
          dynamo: dynamoClient,
          ...(env.AWS_ENDPOINT_URL_DYNAMODB && { endpoint: env.AWS_ENDPOINT_URL_DYNAMODB }),
          tableName: env[ENV.tableName]!,
          consumers: await Promise.all(
            streamConsumers.map(async (def) => ({
              def,
              handler: await loadHandler(def.consumer, def.sends),
              ...(options.onConsumerError && { onError: options.onConsumerError }),
            })),
          ),
        }),
      );
    }

    if (options.port !== undefined) {
      // Written from the route table here, as the synth writes it into the function's asset.
      env[ENV.openApiDocument] = writeOpenApiDocument(options.stateDir);
      process.env[ENV.openApiDocument] = env[ENV.openApiDocument];
      api = await startApiGateway(routes, options.port, options.host);
      env[ENV.publicUrl] = api.url;
      process.env[ENV.publicUrl] = api.url;
    }
    return { ...(api && { apiUrl: api.url }), ...(sockets && { socketUrl: sockets.url }), env, queueUrls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
