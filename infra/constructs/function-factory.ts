import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, Aws, DockerImage, Stack, type Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, LayerVersion, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { ENV } from '#lib/config.ts';
import { sdkAttemptTimeoutMs } from '#lib/sdk-timeouts.ts';
import { BUNDLING, buildLazyPackages } from '../bundling.ts';
import { pascalCase } from '../names.ts';
import { grantTracing, type Access } from './access.ts';
import type { DataStore } from './data-store.ts';
import { stageLogGroup } from './log-groups.ts';
import { acknowledgeNag, nagArn } from './nag.ts';
import type { ServiceQueues } from './service-queues.ts';

// Every Lambda of the stage is made here, the same way: bundling (infra/bundling.ts) with the
// lazy packages' layer, its log group, tracing, the service's environment, and its role. The
// role is what the factory owns: functions with the same grants (data access, queues sent to,
// pushing to the sockets) share one, made on first use in the stack. A role with its policy per
// function would add two resources to the five a route costs, for nothing: least privilege holds
// all the same, as a role carries exactly its functions' grants.
//
// The constructs that make functions (http-routes.ts, live-sockets.ts, console-routes.ts, the
// consumers) are handed a `FunctionMaker` and say what each function needs in a `FunctionSpec`;
// the grants follow from the spec, so no construct decides another's.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUTPUT_FORMAT = { cjs: OutputFormat.CJS, esm: OutputFormat.ESM } as const;

/**
 * The newest Node LTS Lambda offers (cdk-nag's AwsSolutions-L1); infra/bundling.ts targets the
 * same Node. Named, not NODEJS_LATEST, whose value moves with aws-cdk-lib.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

export interface FunctionSpec {
  entry: string;
  timeout: Duration;
  access: Access;
  /** Logical names of the queues it sends to: it gets their URLs and sqs:SendMessage. */
  sends: readonly string[];
  /** Pushes frames to the inbox sockets (the sockets grant it, once they exist): a role of its own. */
  pushesToSockets?: boolean;
  /** What afterBundling copies into its asset beside the code, and the variables that say where. */
  files?: FunctionFiles;
}

/** Where Lambda unpacks a function's asset: files copied in by afterBundling are under it. */
export const LAMBDA_TASK_ROOT = '/var/task';

export interface FunctionFiles {
  environment: Record<string, string>;
  /** Shell commands NodejsFunction runs after esbuild, in the bundling environment (local or Docker). */
  afterBundling: (inputDir: string, outputDir: string) => string[];
}

/** What a construct that makes functions is handed. */
export interface FunctionMaker {
  /** A function in `scope` (the stack, or a nested stack of it). */
  make(scope: Construct, id: string, spec: FunctionSpec): NodejsFunction;
}

export interface FunctionFactoryProps {
  data: DataStore;
  queues: ServiceQueues;
  /** The variables every function gets besides the data's and its queues' (service name, stage, settings). */
  environment: Record<string, string>;
  /** The stage's removal policy, for the functions' log groups. */
  removalPolicy: RemovalPolicy;
}

export class FunctionFactory implements FunctionMaker {
  private readonly stack: Stack;
  private readonly roles = new Map<string, Role>();
  private readonly lazyPackages: LayerVersion;
  private readonly environment: Record<string, string>;

  constructor(
    scope: Construct,
    private readonly props: FunctionFactoryProps,
  ) {
    this.stack = Stack.of(scope);
    this.environment = { ...props.data.environment, ...props.environment };
    // The packages functions load on first use (infra/bundling.ts, LAZY_PACKAGES), each built once
    // into one file of this layer, which every function has: Lambda's NODE_PATH holds
    // /opt/nodejs/node_modules, where a bundle's require() finds them.
    this.lazyPackages = new LayerVersion(this.stack, 'LazyPackages', {
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
  }

  make(scope: Construct, id: string, spec: FunctionSpec): NodejsFunction {
    const { files } = spec;
    const environment = {
      ...this.environment,
      ...files?.environment,
      ...this.props.queues.environmentFor(spec.sends),
      // Its SDK calls' attempts fit in its own timeout (lib/sdk-timeouts.ts).
      [ENV.sdkAttemptTimeoutMs]: String(sdkAttemptTimeoutMs(spec.timeout.toSeconds())),
    };
    return new NodejsFunction(scope, id, {
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
      layers: [this.lazyPackages],
      role: this.roleFor(spec.access, spec.sends, spec.pushesToSockets),
      // An explicit group instead of logRetention, which would add a custom-resource Lambda.
      logGroup: stageLogGroup(scope, `${id}Logs`, this.props.removalPolicy),
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
  }

  /** The role of functions with these grants, made in the stack on first use and shared by every nested stack. */
  private roleFor(access: Access, sends: readonly string[], pushesToSockets = false): Role {
    const names = [...new Set(sends)].sort();
    const key = [access, ...names, ...(pushesToSockets ? ['sockets'] : [])].map(pascalCase).join('');
    let role = this.roles.get(key);
    if (role) return role;
    role = new Role(this.stack, `${key}FunctionRole`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    // What AWSLambdaBasicExecutionRole grants, less CreateLogGroup (every function's group is made
    // with it), on this stage's log groups only: CloudFormation names a group it makes
    // `<stack name>-<logical id>-<random>`, and a nested stack `<parent's name>-<logical id>-<random>`.
    const logGroups = `log-group:${this.stack.stackName}-*`;
    const logGroupsArn = `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:${logGroups}`;
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroupsArn] }));
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
    this.props.data.grant(role, access);
    this.props.queues.grantSend(role, names);
    this.roles.set(key, role);
    return role;
  }
}
