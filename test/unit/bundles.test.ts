import { execFileSync, execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildLazyPackages, esbuildOptions, LAZY_EXTERNAL } from '#infra/bundling.ts';
import { queues } from '#infra/queues.ts';
import { streamConsumers } from '#infra/streams.ts';
import { routes } from '#infra/routes.ts';
import type { RouteDef } from '#lib/http/route.ts';
import { consoleRoute } from '#infra/routes/console.ts';
import { fallbackRoute } from '#infra/routes/fallback.ts';
import { CONSOLE_ASSET_DIR } from '#infra/constructs/console-routes.ts';
import { LAMBDA_TASK_ROOT } from '#infra/constructs/function-factory.ts';
import { routeFiles } from '#infra/constructs/route-files.ts';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';

// What some Lambda bundles must leave out (docs/performance.md). Only a use case that reads what
// an author sent parses Liquid (steps keep their template readings, which views, PATCH and sync
// use), and only one that saves a payloadSchema compiles it with ajv. The SDK clients few requests
// need load on first use, not at every cold start. Only POST and PATCH functions carry the
// idempotency key's machinery. The socket functions carry only what their route does (the ping
// answer no AWS client at all), and only the live consumer the management API's client. And a
// bundle built as the stack builds it loads the way the Lambda runtime loads it, and answers; a
// consumer's sends its invocation's subsegment to X-Ray when Lambda traces it.
// Every bundle is at most 300 KB (issue 35): what a function needs only for some jobs or
// requests is a lazy package (infra/bundling.ts), imported on first use and never at init.

// Every function is built in one esbuild call, before the checks (beforeAll): several read the
// same bundles, and one call with every entry point is many times faster than one per function.
// What a function's own build would read is what its entry reaches in that call's import graph.
let built: Metafile | undefined;
/** Each entry's bundle, bytes. */
const sizes = new Map<string, number>();

/** The build's metafile narrowed to what `entry` reaches, as a build of that entry alone reads it. */
function bundle(entry: string): Metafile {
  const inputs = built?.inputs;
  if (!inputs?.[entry]) throw new Error(`${entry} is not among the built entry points`);
  const reached: Metafile['inputs'] = {};
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached[file]) continue;
    reached[file] = inputs[file]!;
    for (const i of inputs[file]!.imports) if (!i.external) pending.push(i.path);
  }
  return { inputs: reached, outputs: {} };
}

/** The package of an import path: its first segment, or two for a scoped one. */
const packageOf = (path: string) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/** The packages a function runs: those bundled, and those it imports from outside (the lazy layer, the runtime's SDK). */
function packagesOf(entry: string): string[] {
  const metafile = bundle(entry);
  const bundled = Object.keys(metafile.inputs).map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]);
  const imported = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => packageOf(i.path)));
  return [...new Set([...bundled, ...imported].filter((name) => name !== undefined))];
}

const MAX_BYTES = 300 * 1024;

const LIQUID = 'liquidjs';
const AJV = ['ajv', 'ajv-formats'];
// sanitize-html loads postcss, which we never call (infra/bundling/postcss-stub.cjs).
const POSTCSS = ['postcss', 'source-map-js'];

const LEFT_OUT: [entry: string, packages: string[]][] = [
  ['functions/workflows/get-workflow.ts', [LIQUID, ...AJV]],
  ['functions/workflows/list-workflows.ts', [LIQUID, ...AJV]],
  ['functions/workflows/delete-workflow.ts', [LIQUID, ...AJV]],
  ['functions/workflows/sync-workflow.ts', [LIQUID, ...AJV]],
  ['functions/workflows/patch-workflow.ts', [LIQUID]],
  ['functions/workflows/list-notification-templates.ts', [LIQUID, ...AJV]],
  ['functions/workflows/get-notification-template.ts', [LIQUID, ...AJV]],
  ['functions/workflows/delete-notification-template.ts', [LIQUID, ...AJV]],
  ['functions/workflows/update-notification-template-status.ts', [LIQUID, ...AJV]],
  ['functions/workflows/list-notification-groups.ts', [LIQUID, ...AJV]],
  ['functions/workflows/get-notification-group.ts', [LIQUID, ...AJV]],
  // v1 workflows have no payload schema to compile.
  ['functions/workflows/create-notification-template.ts', AJV],
  ['functions/workflows/update-notification-template.ts', AJV],
  // Only a layout's create and update check its Liquid.
  ['functions/layouts/get-layout.ts', [LIQUID, ...AJV]],
  ['functions/layouts/list-layouts.ts', [LIQUID, ...AJV]],
  ['functions/layouts/delete-layout.ts', [LIQUID, ...AJV]],
  ['functions/layouts/duplicate-layout.ts', [LIQUID, ...AJV]],
  ['functions/layouts/layout-usage.ts', [LIQUID, ...AJV]],
  ['functions/notifications/get-notification.ts', [LIQUID, ...AJV]],
  ['functions/notifications/list-notifications.ts', [LIQUID, ...AJV]],
  // The document is read from a file written at synth: no route table, so no schemas.
  ['functions/openapi/get-open-api.ts', [LIQUID, ...AJV, 'zod']],
  ['functions/consumers/events.ts', POSTCSS],
  ['functions/consumers/jobs.ts', POSTCSS],
  // The webhook emitter shows workflows as the v2 API does, without rendering or compiling anything;
  // the sender only signs and POSTs.
  ['functions/consumers/webhook-events.ts', [LIQUID, ...AJV, ...POSTCSS]],
  ['functions/consumers/webhooks.ts', [LIQUID, ...AJV, ...POSTCSS, 'zod', '@middy/core']],
  // The console's files: no data, no validation, no rendering.
  [consoleRoute.handler, [LIQUID, ...AJV, ...POSTCSS, 'zod', '@middy/core', 'sanitize-html']],
];

/** The external packages a bundle imports: when it is loaded, or by a dynamic import() later. */
function externalImports(metafile: Metafile, when: 'at init' | 'on first use'): string[] {
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const lazy = (kind: string) => kind === 'dynamic-import';
  return [...new Set(imports.filter((i) => i.external && lazy(i.kind) === (when === 'on first use')).map((i) => i.path))];
}

/**
 * Builds `entry` as the stack builds it into index.js of a fresh folder, inside the repository
 * (so the external @aws-sdk/* packages resolve from node_modules) and without a package.json
 * saying "module" (as in /var/task); runs `check` with the file and the folder, then removes it.
 */
async function withBundle(entry: string, check: (file: string, dir: string) => void): Promise<void> {
  mkdirSync('.local', { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), '.local', 'bundle-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }');
    // The lazy packages where the bundle's require() finds them, as in the layer.
    buildLazyPackages(join(dir, 'node_modules'));
    const file = join(dir, 'index.js');
    await build({ entryPoints: [entry], outfile: file, ...esbuildOptions(), logLevel: 'silent' });
    check(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where every send to one of the service's queues goes through (its URL from the function's environment). */
const SENDER = 'lib/queue/send-batch.ts';
const ON_FIRST_USE = ['@aws-sdk/client-kms', '@aws-sdk/client-sesv2', '@aws-sdk/client-sns'];
const SOCKET_ENTRIES = [socketAuthorizer.handler, ...socketRoutes.map((r) => r.handler)];
const ENTRIES = [
  ...new Set([
    ...routes.map((r) => r.handler),
    fallbackRoute.handler,
    consoleRoute.handler,
    ...queues.flatMap((q) => (q.consumer ? [q.consumer] : [])),
    ...streamConsumers.map((c) => c.consumer),
    ...SOCKET_ENTRIES,
  ]),
];

describe('Lambda bundles', () => {
  beforeAll(async () => {
    const result = await build({
      entryPoints: ENTRIES,
      ...esbuildOptions(),
      // Several entry points need an output folder; nothing is written (write: false).
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    built = result.metafile;
    for (const output of Object.values(built.outputs)) if (output.entryPoint) sizes.set(output.entryPoint, output.bytes);
  });

  it('every function is at most 300 KB', () => {
    const over = ENTRIES.filter((entry) => sizes.get(entry)! > MAX_BYTES).map((entry) => [entry, sizes.get(entry)!] as const);
    expect(over).toEqual([]);
  });

  it('no function imports a lazy package at init; the ones that use them import them on first use', () => {
    const lazyAtInit = ENTRIES.map((entry) => ({
      entry,
      lazy: externalImports(bundle(entry), 'at init').filter((path) => LAZY_EXTERNAL.some((p) => path === p || path.startsWith(`${p}/`))),
    }));
    expect(lazyAtInit.filter((l) => l.lazy.length > 0)).toEqual([]);
    // The check sees them at all: the jobs consumer reaches nodemailer, the sanitizer, the tracer and Liquid by import().
    expect(externalImports(bundle('functions/consumers/jobs.ts'), 'on first use')).toEqual(
      expect.arrayContaining(['nodemailer', 'sanitize-html', '@aws-lambda-powertools/tracer', 'liquidjs', 'pluralize']),
    );
  });

  it.each(LEFT_OUT)('%s leaves out %j', (entry, leftOut) => {
    const packages = packagesOf(entry);
    expect(packages.filter((name) => leftOut.includes(name))).toEqual([]);
  });

  it('only the API-key POST and PATCH functions carry Powertools idempotency (the idempotency-key header)', () => {
    const IDEMPOTENCY = '@aws-lambda-powertools/idempotency';
    const carried = routes.map((r) => ({
      route: r.operationId,
      method: r.method,
      auth: r.auth,
      carries: packagesOf(r.handler).includes(IDEMPOTENCY),
    }));
    const wrong = carried.filter((c) => c.carries !== (c.auth === 'apiKey' && (c.method === 'POST' || c.method === 'PATCH')));
    expect(wrong).toEqual([]);
  });

  it('only the functions of routes with auth carry the API-key and session-token checks (public-handler.ts)', () => {
    const AUTHENTICATE = 'lib/http/authenticate.ts';
    const routeDefs: readonly RouteDef[] = routes;
    const wrong = routeDefs.filter((r) => Object.hasOwn(bundle(r.handler).inputs, AUTHENTICATE) !== (r.auth !== 'none'));
    expect(wrong.map((r) => r.operationId)).toEqual([]);
  });

  it('only the functions whose entries declare queues (`sends`) reach the queue sender', () => {
    const routeDefs: readonly RouteDef[] = routes;
    const declared = new Map<string, readonly string[]>([
      ...ENTRIES.map((entry) => [entry, []] as const),
      ...routeDefs.map((r) => [r.handler, r.sends ?? []] as const),
      ...socketRoutes.map((r) => [r.handler, r.sends ?? []] as const),
      ...queues.flatMap((q) => (q.consumer ? [[q.consumer, q.sends ?? []] as const] : [])),
      ...streamConsumers.map((c) => [c.consumer, c.sends] as const),
    ]);
    const wrong = ENTRIES.filter((entry) => Object.hasOwn(bundle(entry).inputs, SENDER) !== declared.get(entry)!.length > 0);
    expect(wrong).toEqual([]);
    // The check sees the sender at all: the trigger route sends to the events queue.
    expect(Object.hasOwn(bundle(routeDefs.find((r) => r.sends?.includes('events'))!.handler).inputs, SENDER)).toBe(true);
  });

  it("the routes that reach a customer's bridge do not carry the outbound address guard: the outbound consumer calls", () => {
    const GUARD = 'lib/net/guarded-request.ts';
    const routeDefs: readonly RouteDef[] = routes;
    const asking = routeDefs.filter((r) => r.sends?.includes('outbound'));
    expect(asking.map((r) => r.operationId).sort()).toEqual(
      ['diffBridge', 'getBridgeStatus', 'previewWorkflowStep', 'syncBridge', 'validateBridge'].sort(),
    );
    expect(asking.filter((r) => Object.hasOwn(bundle(r.handler).inputs, GUARD)).map((r) => r.operationId)).toEqual([]);
    expect(Object.hasOwn(bundle(queues.find((q) => q.name === 'outbound')!.consumer!).inputs, GUARD)).toBe(true);
  });

  it('no function loads the KMS, SES or SNS client at init', () => {
    const bundles = new Map(ENTRIES.map((entry) => [entry, bundle(entry)] as const));
    const loaded = [...bundles].map(([entry, metafile]) => ({
      entry,
      sdk: externalImports(metafile, 'at init').filter((p) => ON_FIRST_USE.includes(p)),
    }));
    expect(loaded.filter((l) => l.sdk.length > 0)).toEqual([]);
    // The check sees the clients at all: the jobs consumer reaches SES and SNS by import().
    const jobs = bundles.get('functions/consumers/jobs.ts')!;
    expect(externalImports(jobs, 'on first use')).toEqual(expect.arrayContaining(['@aws-sdk/client-sesv2', '@aws-sdk/client-sns']));
  });

  it('socket functions carry only what their route uses; only the live consumer the management API client', () => {
    const externals = new Map(ENTRIES.map((entry) => [entry, externalImports(bundle(entry), 'at init')] as const));
    // $default also takes a socket.io CONNECT (it stores the socket and queues the counts): the
    // table and the queue, but never the management API (frames go out from the live consumer).
    expect(
      externals
        .get('functions/live/message.ts')!
        .filter((p) => p.startsWith('@aws-sdk/'))
        .sort(),
    ).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-scheduler', '@aws-sdk/client-sqs', '@aws-sdk/lib-dynamodb']);
    const MANAGEMENT = '@aws-sdk/client-apigatewaymanagementapi';
    expect([...externals].filter(([, imports]) => imports.includes(MANAGEMENT)).map(([entry]) => entry)).toEqual([
      'functions/consumers/live.ts',
    ]);
    for (const entry of SOCKET_ENTRIES) {
      const packages = packagesOf(entry);
      expect(
        packages.filter((p) => [LIQUID, ...AJV, 'zod', '@middy/core'].includes(p)),
        entry,
      ).toEqual([]);
      // Tokens are checked by the authorizer, and by $default for a socket.io CONNECT packet's token.
      expect(packages.includes('jose'), entry).toBe(entry === socketAuthorizer.handler || entry === 'functions/live/message.ts');
    }
  });

  it('the sanitizer bundled without postcss loads and sanitizes', () =>
    withBundle('lib/pipeline/steps/sanitize.ts', (file) => {
      const html = '<style>p { color: red }</style><p style="color: blue" onclick="alert(1)">x</p><img src=x onerror=alert(1)>';
      const script =
        `const s = require(${JSON.stringify(file)}); ` +
        `s.loadSanitizer().then(() => process.stdout.write(JSON.stringify([s.safeHtml(${JSON.stringify(html)}, 'email'), ` +
        `s.safeHtml(${JSON.stringify(html)}, 'in-app')])));`;
      const out = JSON.parse(
        execFileSync(process.execPath, ['-e', script], { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' }),
      );
      expect(out).toEqual([
        '<style>p { color: red }</style><p style="color: blue">x</p><img src="x" />',
        '<p style="color: blue">x</p><img src="x" />',
      ]);
    }));

  it('the template engine bundled as the stack bundles it loads from the lazy layer, reads and renders', () =>
    withBundle('lib/workflows/templates.ts', (file) => {
      const variables = JSON.stringify({ payload: { n: 3, items: [{ name: 'A' }, { name: 'B' }, { name: 'C' }], html: '<b>x</b>' } });
      const text = JSON.stringify("{{ payload.n | pluralize: 'comment' }}; {{ payload.items | toSentence: 'name', 1 }}");
      const script =
        `const t = require(${JSON.stringify(file)}); ` +
        `t.loadTemplates().then(() => process.stdout.write(JSON.stringify([` +
        `t.renderTemplate(${text}, ${variables}), ` +
        `t.renderHtmlTemplate('{{ payload.html }}', ${variables}), ` +
        `t.readTemplates({ body: '{{ subscriber.firstName }} {{ x | nope }}', subject: 'Hi {{ payload.n }}' })])));`;
      const out = JSON.parse(
        execFileSync(process.execPath, ['-e', script], { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' }),
      );
      expect(out).toEqual([
        '3 comments; A and 2 others',
        '&lt;b&gt;x&lt;/b&gt;',
        [
          { field: 'body', ok: false, kind: 'filter', message: expect.stringContaining('nope') },
          { field: 'subject', ok: true, variables: [['payload', 'n']] },
        ],
      ]);
    }));

  it('a consumer bundled as the stack bundles it traces its invocation to X-Ray when Lambda traces it (Tracer)', () =>
    withBundle('functions/consumers/live.ts', (file, dir) => {
      // A stand-in for the X-Ray daemon (UDP), then one invocation with an empty batch, as Lambda
      // runs it with active tracing: the trace header in the environment.
      const context = "{ awsRequestId: 'r1', functionName: 'live', getRemainingTimeInMillis: () => 10000 }";
      const script = `
        const socket = require('node:dgram').createSocket('udp4');
        const received = [];
        socket.on('message', (m) => received.push(m.toString()));
        socket.bind(0, '127.0.0.1', async () => {
          process.env.AWS_XRAY_DAEMON_ADDRESS = '127.0.0.1:' + socket.address().port;
          const answer = await require(${JSON.stringify(file)}).handler({ Records: [] }, ${context});
          const deadline = Date.now() + 5000;
          const done = () => received.length > 0 || Date.now() > deadline;
          while (!done()) await new Promise((r) => setTimeout(r, 20));
          socket.close();
          process.stdout.write(JSON.stringify({ answer, segments: received.map((r) => JSON.parse(r.split('\\n')[1])) }));
        });`;
      const env = {
        ...process.env,
        NODE_OPTIONS: '',
        AWS_REGION: 'us-east-1',
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        AWS_LAMBDA_FUNCTION_NAME: 'live',
        LAMBDA_TASK_ROOT: dir,
        _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      };
      const { answer, segments } = JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }));
      expect(answer).toEqual({ batchItemFailures: [] });
      expect(segments).toEqual([
        expect.objectContaining({
          name: '## live',
          type: 'subsegment',
          trace_id: '1-5759e988-bd862e3fe1be46a994272793',
          parent_id: '53995c3f42cd8ad8',
          annotations: expect.objectContaining({ Service: 'notify' }),
        }),
      ]);
    }));

  it('a function bundled as the stack bundles it, with its files beside it, is required and answers, as the Lambda runtime runs it', () =>
    withBundle('functions/openapi/get-open-api.ts', (file, dir) => {
      // What the stack's afterBundling puts in the asset (the document written from the route
      // table), with the asset's folder where Lambda's /var/task would be.
      const files = routeFiles({ operationId: 'getOpenApi' })!;
      for (const command of files.afterBundling(process.cwd(), dir)) execSync(command);
      const assetEnv = Object.fromEntries(Object.entries(files.environment).map(([k, v]) => [k, v.replace(LAMBDA_TASK_ROOT, dir)]));
      const event = {
        version: '2.0',
        routeKey: 'GET /openapi.json',
        rawPath: '/openapi.json',
        rawQueryString: '',
        headers: {},
        requestContext: { http: { method: 'GET', path: '/openapi.json' }, requestId: 'r1', stage: '$default' },
        isBase64Encoded: false,
      };
      const context = "{ awsRequestId: 'r1', functionName: 'getOpenApi', getRemainingTimeInMillis: () => 10000 }";
      const script =
        `require(${JSON.stringify(file)}).handler(${JSON.stringify(event)}, ${context})` +
        '.then((r) => process.stdout.write(JSON.stringify(r)));';
      const env = {
        ...process.env,
        NODE_OPTIONS: '',
        AWS_REGION: 'us-east-1',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...assetEnv,
      };
      // The document is near 1 MB, Node's default output buffer: allow it room to grow with the table.
      const answer = JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 }));
      expect(answer.statusCode).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        openapi: '3.1.0',
        paths: expect.objectContaining({ '/v1/events/trigger': expect.any(Object) }),
      });
    }));

  it(
    'the console function bundled as the stack bundles it, with the built ' +
      'files beside it, answers the page, its files and its configuration',
    () =>
      withBundle(consoleRoute.handler, (file, dir) => {
        // What the stack's afterBundling hook does (infra/constructs/console-routes.ts).
        cpSync('console/dist', join(dir, CONSOLE_ASSET_DIR), { recursive: true });
        const event = (rawPath: string) => ({
          version: '2.0',
          routeKey: 'GET /console/{path+}',
          rawPath,
          rawQueryString: '',
          headers: {},
          requestContext: { http: { method: 'GET', path: rawPath }, requestId: 'r1', stage: '$default' },
          isBase64Encoded: false,
        });
        const paths = ['/console/env/x/activity', '/console/config.json', '/console/favicon.svg'];
        const script =
          `const { handler } = require(${JSON.stringify(file)}); ` +
          `Promise.all(${JSON.stringify(paths.map(event))}.map((e) => handler(e))).then((r) => process.stdout.write(JSON.stringify(r)));`;
        const env = {
          ...process.env,
          NODE_OPTIONS: '',
          CONSOLE_DIR: join(dir, CONSOLE_ASSET_DIR),
          LIVE_SOCKET_URL: 'wss://sockets.example.com/prod',
        };
        const [page, config, icon] = JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }));
        expect(page).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
        expect(page.body).toContain('<div id="root">');
        expect(JSON.parse(config.body)).toEqual({ socketUrl: 'wss://sockets.example.com/prod' });
        expect(icon).toMatchObject({ statusCode: 200, headers: { 'content-type': 'image/svg+xml' } });
      }),
  );
});
