import { Duration, NestedStack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import type { RouteDef } from '../../lib/http/route.ts';
import { pascalCase } from '../names.ts';
import type { Access } from './access.ts';
import type { FunctionMaker } from './function-factory.ts';
import { acknowledgeNag, UNAUTHORIZED_ROUTE_REASONS } from './nag.ts';
import { routeFiles } from './route-files.ts';

// One part of the HTTP route table (infra/routes/<part>.ts) in a nested stack: each route's
// function, log group, integration, invoke permission and API Gateway route (five resources).
// The API, its stage, the roles and the data stay in the parent, which hands them in; what a
// route's function may do (its access, the queues it sends to, its timeout) follows from its
// entry here, and the function factory grants exactly that.
//
// A nested stack per part: a CloudFormation stack holds at most 500 resources, and the whole
// table (over a hundred routes, five resources each) no longer fits in one. A part is well under
// it; test/unit/stack.test.ts holds every stack to 400, so a part that grows is noticed early.

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

export interface HttpRoutesProps {
  stage: string;
  /** The part's name, its file in infra/routes/. */
  part: string;
  routes: readonly RouteDef[];
  /** The parent's HTTP API: the routes and integrations are made here, on it. */
  api: IHttpApi;
  /** Makes each route's function the way the stack makes every function (function-factory.ts). */
  functions: FunctionMaker;
}

export class HttpRoutes extends NestedStack {
  readonly part: string;
  readonly routes: readonly RouteDef[];

  constructor(scope: Construct, id: string, props: HttpRoutesProps) {
    super(scope, id, { description: `notify-${props.stage}: HTTP routes of infra/routes/${props.part}.ts` });
    this.part = props.part;
    this.routes = props.routes;
    for (const route of props.routes) {
      // Operation ids are unique over the table, so these logical ids are unique over the stacks.
      const name = pascalCase(route.operationId);
      const fn = props.functions.make(this, name, {
        entry: route.handler,
        timeout: Duration.seconds(routeTimeoutSeconds(route)),
        access: accessOf(route),
        sends: route.sends ?? [],
        files: routeFiles(route),
      });
      // Scoped here, not `api.addRoutes` (which makes the route under the API, in the parent).
      const apiRoute = new HttpRoute(this, `${name}Route`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      acknowledgeNag(apiRoute, 'AwsSolutions-APIG4', UNAUTHORIZED_ROUTE_REASONS[route.auth]);
    }
  }
}
