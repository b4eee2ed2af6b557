import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '../../lib/config.ts';
import { consoleRoute } from '../routes/console.ts';
import { LAMBDA_TASK_ROOT, type FunctionFiles, type FunctionMaker } from './function-factory.ts';
import { acknowledgeNag } from './nag.ts';

// The console (console/, docs/console.md) as routes of the HTTP API: `GET /` and
// `GET /console/{path+}` to one function whose asset holds the built front end (console/dist)
// beside its code. Same origin as the API, so the page calls it without CORS and the API key never
// crosses origins; one function, which scales to zero like the rest.

/** Where the built files are in the function's asset (Lambda unpacks it in /var/task). */
export const CONSOLE_ASSET_DIR = 'console';
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the function's asset needs beyond its bundle: the built files and where they are. */
export type ConsoleFiles = FunctionFiles;

export interface ConsoleRoutesProps {
  api: IHttpApi;
  /** API Gateway paths of infra/routes/console.ts. */
  paths: readonly string[];
  /** Makes the function the way the stack makes every function (function-factory.ts), with the console's files in its asset. */
  functions: FunctionMaker;
  /** The WebSocket API's URL, which the page's live inbox connects to. */
  socketUrl: string;
  /** The built console (default: console/dist of this repository). */
  distDir?: string;
}

export class ConsoleRoutes extends Construct {
  readonly fn: IFunction;

  constructor(scope: Construct, id: string, props: ConsoleRoutesProps) {
    super(scope, id);
    const distDir = props.distDir ?? path.join(REPO_ROOT, 'console', 'dist');
    // Only a synth that bundles needs the files (the unit tests' synths skip bundling).
    if (Stack.of(this).bundlingRequired && !existsSync(path.join(distDir, 'index.html'))) {
      throw new Error(
        `The console is not built (${distDir} has no index.html): run \`npm run console:build\` (\`npm install\` does), ` +
          'or deploy without it: `cdk deploy -c console=false` (docs/console.md).',
      );
    }
    const relativeDist = path.relative(REPO_ROOT, distDir);
    // Logical ids start with the construct's id (the route's operation id), as a route's function's do.
    const files: ConsoleFiles = {
      environment: { [ENV.consoleDir]: `${LAMBDA_TASK_ROOT}/${CONSOLE_ASSET_DIR}`, [ENV.socketUrl]: props.socketUrl },
      afterBundling: (inputDir, outputDir) => [`cp -R "${inputDir}/${relativeDist}" "${outputDir}/${CONSOLE_ASSET_DIR}"`],
    };
    this.fn = props.functions.make(this, 'Function', {
      entry: consoleRoute.handler,
      timeout: Duration.seconds(10),
      access: consoleRoute.access,
      sends: [],
      files,
    });
    // One integration, one invoke permission per route (HttpLambdaIntegration grants each route's path).
    const integration = new HttpLambdaIntegration('Integration', this.fn);
    props.paths.forEach((routePath, index) => {
      const route = new HttpRoute(this, `Route${index}`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(routePath, HttpMethod.GET),
        integration,
      });
      acknowledgeNag(
        route,
        'AwsSolutions-APIG4',
        "The console's own page and static files (GET only): its function reads no data (access none). " +
          "The API calls the page then makes carry the environment's API key and are authenticated by their own routes.",
      );
    });
  }
}
