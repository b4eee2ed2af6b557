import { NestedStack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { RouteDef } from '../../lib/http/route.ts';
import { pascalCase } from '../names.ts';
import { acknowledgeNag, UNAUTHORIZED_ROUTE_REASONS } from './nag.ts';

// One part of the HTTP route table (infra/routes/<part>.ts) in a nested stack: each route's
// function, log group, integration, invoke permission and API Gateway route (five resources).
// The API, its stage, the roles and the data stay in the parent, which hands them in.
//
// A nested stack per part: a CloudFormation stack holds at most 500 resources, and the whole
// table (over a hundred routes, five resources each) no longer fits in one. A part is well under
// it; test/unit/stack.test.ts holds every stack to 400, so a part that grows is noticed early.

export interface HttpRoutesProps {
  stage: string;
  /** The part's name, its file in infra/routes/. */
  part: string;
  routes: readonly RouteDef[];
  /** The parent's HTTP API: the routes and integrations are made here, on it. */
  api: IHttpApi;
  /** Makes a route's function in `scope` the way the stack makes every function (bundling, logs, grants). */
  makeFunction: (scope: Construct, id: string, route: RouteDef) => IFunction;
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
      const fn = props.makeFunction(this, name, route);
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
