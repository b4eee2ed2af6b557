import { Aws, Duration, NestedStack, type RemovalPolicy } from 'aws-cdk-lib';
import { ApiMapping, DomainName, LogGroupLogDestination, WebSocketApi, WebSocketStage, type CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Policy, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { socketAuthorizer, socketRoutes } from '../ws-routes.ts';
import type { Access } from './access.ts';
import type { FunctionMaker } from './function-factory.ts';
import { pascalCase } from '../names.ts';
import { stageLogGroup } from './log-groups.ts';
import { acknowledgeNag, nagArn } from './nag.ts';

// The inbox sockets: an API Gateway WebSocket API made from the socket route table
// (infra/ws-routes.ts). $connect runs a Lambda REQUEST authorizer (`?token=`) first, whose
// context (the session) API Gateway hands every later route of the connection, so $disconnect
// knows the connection item's key without a lookup; $default answers the client's `ping` through
// a route response. The live consumer pushes frames with PostToConnection on the stage's
// callback URL, the only grant of the management API (grantPostToConnection).
//
// A nested stack, as each part of the HTTP routes (http-routes.ts): a CloudFormation stack holds
// at most 500 resources, so the parent keeps only what the stacks share.

export interface LiveSocketsProps {
  stage: string;
  /** Steady messages per second and burst of the stage (the client pings every 25 s per socket). */
  throttle: { rateLimit: number; burstLimit: number };
  /** Makes each socket route's function the way the stack makes every function (function-factory.ts). */
  functions: FunctionMaker;
  /** The stage's alarm topic (infra/constructs/alarms.ts). */
  alarmTopic: ITopic;
  /** Access logs on the stage (needs the account's API Gateway CloudWatch Logs role: docs/deploy.md). */
  accessLogs: boolean;
  /** The stage's removal policy, for the access log's group. */
  removalPolicy: RemovalPolicy;
  /** A custom domain (and its ACM certificate) the stage is mapped on at `/socket.io`. */
  domain?: { domainName: string; certificateArn: string };
}

/**
 * Where the stage sits on the custom domain. The legacy clients (socket.io) always connect to
 * `/socket.io/` at the origin of their socketUrl and read any path of it as a namespace, so the
 * stage's own URL (`wss://…/<stage>`) cannot serve them: on the custom domain, the stage is
 * mapped on `/socket.io`, and their socketUrl is `wss://<domain>` (`@novu/js`'s `wss://<domain>/socket.io`).
 */
export const SOCKET_IO_MAPPING_KEY = 'socket.io';

export class LiveSockets extends NestedStack {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;

  constructor(scope: Construct, id: string, props: LiveSocketsProps) {
    super(scope, id, { description: `notify-${props.stage}: inbox sockets (WebSocket API)` });
    const makeFunction = (id: string, entry: string, access: Access, sends: readonly string[]) =>
      props.functions.make(this, id, { entry, timeout: Duration.seconds(10), access, sends });
    const authorizerFn = makeFunction(pascalCase(socketAuthorizer.operationId), socketAuthorizer.handler, socketAuthorizer.access, []);
    const authorizer = new WebSocketLambdaAuthorizer('TokenAuthorizer', authorizerFn, {
      // No identity source: a socket.io connection may come without `?token=` (its token is in its
      // CONNECT packet), so the authorizer runs on every connection and refuses the others itself.
      identitySource: [],
    });
    this.api = new WebSocketApi(this, 'SocketApi', { apiName: `notify-${props.stage}-sockets` });
    for (const route of socketRoutes) {
      const name = pascalCase(route.operationId);
      const fn = makeFunction(name, route.handler, route.access, route.sends ?? []);
      const apiRoute = this.api.addRoute(route.routeKey, {
        integration: new WebSocketLambdaIntegration(`${name}Integration`, fn),
        ...(route.routeKey === '$connect' && { authorizer }),
        ...(route.replies && { returnResponse: true }),
      });
      if (route.routeKey !== '$connect') {
        acknowledgeNag(
          apiRoute,
          'AwsSolutions-APIG4',
          'API Gateway authorizes a WebSocket connection once, on $connect (the token authorizer); ' +
            'its later routes run on that authorized connection and take no authorizer.',
        );
      }
    }
    // Each connect, message and disconnect is logged in API Gateway's default access-log format.
    // A WebSocket API writes it with the account's API Gateway CloudWatch role (docs/deploy.md),
    // which a fresh account lacks: opt-in, so one `cdk deploy` works in any account.
    this.stage = new WebSocketStage(this, 'SocketStage', {
      webSocketApi: this.api,
      stageName: props.stage,
      autoDeploy: true,
      throttle: props.throttle,
      ...(props.accessLogs && {
        accessLogSettings: { destination: new LogGroupLogDestination(stageLogGroup(this, 'SocketAccessLogs', props.removalPolicy)) },
      }),
    });
    if (!props.accessLogs) {
      acknowledgeNag(
        this.stage,
        'AwsSolutions-APIG1',
        'WebSocket access logs need the account-wide API Gateway CloudWatch Logs role, which the stack does not own ' +
          '(one per account and region, shared with every API there); ' +
          'a stage turns them on with -c socketAccessLogs=true once it is set (docs/deploy.md). ' +
          'Lambda logs every connect, message and disconnect meanwhile.',
      );
    }
    if (props.domain) this.mapDomain(props.domain);
    this.alarmOnErrors(props.stage, props.alarmTopic);
  }

  private mapDomain({ domainName, certificateArn }: { domainName: string; certificateArn: string }): void {
    const domain = new DomainName(this, 'SocketDomain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'SocketCertificate', certificateArn),
    });
    new ApiMapping(this, 'SocketApiMapping', {
      api: this.api,
      domainName: domain,
      stage: this.stage,
      apiMappingKey: SOCKET_IO_MAPPING_KEY,
    });
    this.domainTarget = domain.regionalDomainName;
  }

  /** The regional domain name a DNS record (CNAME or alias) of the custom domain must point at. */
  domainTarget: string | undefined;

  /** `wss://…/<stage>`: the `socketUrl` clients are given. */
  get url(): string {
    return this.stage.url;
  }

  /** `https://…/<stage>`: where the management API (PostToConnection) is called. */
  get callbackUrl(): string {
    return this.stage.callbackUrl;
  }

  /**
   * PostToConnection on this stage's connections, and nothing else of the management API (no
   * GET or DELETE of a connection: a closed one is simply forgotten). The connection id is the
   * only wildcard: it is not known before the socket opens. A policy of this stack on the
   * parent's role, so the API's id is this stack's own reference (and the acknowledged finding
   * names it as cdk-nag does).
   */
  grantPostToConnection(role: IRole): void {
    const connections = `${this.stage.stageName}/POST/@connections/*`;
    const policy = new Policy(this, 'PostToConnectionsPolicy', {
      roles: [role],
      statements: [
        new PolicyStatement({
          actions: ['execute-api:ManageConnections'],
          resources: [`arn:${Aws.PARTITION}:execute-api:${Aws.REGION}:${Aws.ACCOUNT_ID}:${this.api.apiId}/${connections}`],
        }),
      ],
    });
    const apiLogicalId = this.getLogicalId(this.api.node.defaultChild as CfnApi);
    acknowledgeNag(
      policy,
      `AwsSolutions-IAM5[Resource::${nagArn('execute-api', `<${apiLogicalId}>/${connections}`)}]`,
      "The connection id of PostToConnection, on this API's stage only: a socket's id is known only once it opens.",
    );
  }

  /**
   * A socket route that failed or answered 5xx (an authorizer that cannot read the session key,
   * $connect unable to store its connection): clients only see a refused socket, and the handlers
   * answer 500 without a function error, so nothing else would tell.
   */
  private alarmOnErrors(stage: string, topic: ITopic): void {
    const dimensionsMap = { ApiId: this.api.apiId, Stage: this.stage.stageName };
    const metric = (metricName: string) =>
      new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap, period: Duration.minutes(5), statistic: 'Sum' });
    const alarm = new Alarm(this, 'SocketErrorsAlarm', {
      alarmName: `notify-${stage}-sockets-errors`,
      alarmDescription: 'The WebSocket API (inbox sockets) had integration or execution errors in 5 minutes',
      metric: new MathExpression({
        expression: 'FILL(i, 0) + FILL(e, 0)',
        label: 'Socket route errors',
        period: Duration.minutes(5),
        usingMetrics: { i: metric('IntegrationError'), e: metric('ExecutionError') },
      }),
      threshold: 0,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    // As every alarm of the stage: to its topic, when it fires and when it is OK again.
    const action = new SnsAction(topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}
