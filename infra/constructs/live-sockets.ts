import { Stack } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { socketAuthorizer, socketRoutes } from '../ws-routes.ts';
import type { Access } from './access.ts';

// The inbox sockets: an API Gateway WebSocket API made from the socket route table
// (infra/ws-routes.ts). $connect runs a Lambda REQUEST authorizer on `?token=` first, whose
// context (the session) API Gateway hands every later route of the connection, so $disconnect
// knows the connection item's key without a lookup; $default answers the client's `ping` through
// a route response. The live consumer pushes frames with PostToConnection on the stage's
// callback URL, the only grant of the management API (grantPostToConnection).

export interface LiveSocketsProps {
  stage: string;
  /** Steady messages per second and burst of the stage (the client pings every 25 s per socket). */
  throttle: { rateLimit: number; burstLimit: number };
  /** Makes a function the way the stack makes every function (bundling, logs, data grants). */
  makeFunction: (id: string, entry: string, access: Access) => IFunction;
}

const pascalCase = (s: string): string => s.replace(/(^|[-_\s]+)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

export class LiveSockets extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;

  constructor(scope: Construct, id: string, props: LiveSocketsProps) {
    super(scope, id);
    const authorizerFn = props.makeFunction(pascalCase(socketAuthorizer.operationId), socketAuthorizer.handler, socketAuthorizer.access);
    const authorizer = new WebSocketLambdaAuthorizer('TokenAuthorizer', authorizerFn, {
      // No token, no call: API Gateway answers 401 itself.
      identitySource: [`route.request.querystring.${socketAuthorizer.tokenParameter}`],
    });
    this.api = new WebSocketApi(this, 'Api', { apiName: `notify-${props.stage}-sockets` });
    for (const route of socketRoutes) {
      const name = pascalCase(route.operationId);
      const fn = props.makeFunction(name, route.handler, route.access);
      this.api.addRoute(route.routeKey, {
        integration: new WebSocketLambdaIntegration(`${name}Integration`, fn),
        ...(route.routeKey === '$connect' && { authorizer }),
        ...(route.replies && { returnResponse: true }),
      });
    }
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: props.stage,
      autoDeploy: true,
      throttle: props.throttle,
    });
  }

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
   * only wildcard: it is not known before the socket opens.
   */
  grantPostToConnection(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['execute-api:ManageConnections'],
        resources: [Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `${this.stage.stageName}/POST/@connections/*` })],
      }),
    );
  }
}
