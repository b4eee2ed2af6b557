import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from '../cors.ts';
import { pascalCase } from '../names.ts';
import { fallbackRoute } from '../routes/fallback.ts';
import type { FunctionMaker } from './function-factory.ts';
import { stageLogGroup } from './log-groups.ts';
import { acknowledgeNag } from './nag.ts';

// The HTTP API the route table's parts (http-routes.ts) and the console (console-routes.ts) put
// their routes on: its CORS preflight, its throttled default stage with access logs, and the
// `$default` route that answers what no route serves. Made in the stack's scope, under the
// logical ids it has always had (`Api`, `ApiDefaultStage`, ...).

export interface ServiceApiProps {
  stage: string;
  /** Steady requests per second and burst of the default stage. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Origins whose pages may call the API; any (`*`) when empty or not set. */
  corsAllowedOrigins?: string[] | undefined;
  /** The stage's removal policy, for the access log's group. */
  removalPolicy: RemovalPolicy;
  functions: FunctionMaker;
}

export class ServiceApi {
  readonly api: HttpApi;

  constructor(scope: Construct, props: ServiceApiProps) {
    this.api = new HttpApi(scope, 'Api', {
      apiName: `notify-${props.stage}`,
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
    new HttpStage(scope, 'ApiDefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(stageLogGroup(scope, 'ApiAccessLogs', props.removalPolicy)) },
    });

    // What no route serves: 404 in the service's error body (infra/routes/fallback.ts).
    const fallbackId = pascalCase(fallbackRoute.operationId);
    const fallback = props.functions.make(scope, fallbackId, {
      entry: fallbackRoute.handler,
      timeout: Duration.seconds(10),
      access: fallbackRoute.access,
      sends: [],
    });
    const fallbackRouteResource = new HttpRoute(scope, `${fallbackId}Route`, {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration(`${fallbackId}Integration`, fallback),
    });
    acknowledgeNag(
      fallbackRouteResource,
      'AwsSolutions-APIG4',
      'Answers every unmatched request 404 in the standard error body; its function reads and writes nothing (access none).',
    );
  }
}
