import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { mapConcurrently } from '#lib/concurrency.ts';
import { buildLazyPackages, esbuildOptions, LAZY_PACKAGES, lazyPackageFile } from '#infra/bundling.ts';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { consoleRoute } from '#infra/routes/console.ts';
import { fallbackRoute } from '#infra/routes/fallback.ts';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';
import { TARGETS } from './settings.ts';
import { n, table, type Check } from './table.ts';

// Every Lambda's bundle as the CDK stack builds it (infra/bundling.ts: esbuild, CommonJS, minified,
// node24, the AWS SDK external because the runtime ships it), its size, and its module-init time:
// a fresh Node process requiring it, as the runtime does, from process start to the handler
// module loaded (what Lambda reports as Init Duration, less its own runtime start), against a
// hello-world bundle built the same way. The lazy packages (infra/bundling.ts) are built beside
// the bundles, as in their layer: no bundle loads one at init, and each one's size is reported.

type Inputs = Metafile['outputs'][string]['inputs'];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Inside the repository, so the external @aws-sdk/* packages resolve from node_modules. */
const OUT_DIR = join(ROOT, 'bench', '.bundles');
/** The baselines run once every this many bundles (by default). */
const BASELINE_EVERY = 5;
const run = promisify(execFile);

export interface BundleResult {
  name: string;
  entry: string;
  bytes: number;
  /** Absent where the run timed only some bundles (`BundlesOptions.timed`). */
  initMs?: number;
  /** The largest packages in the bundle, KB. */
  largest: Record<string, number>;
}

/** A bundle whose init was timed. */
export type TimedBundle = BundleResult & { initMs: number };
const isTimed = (f: BundleResult): f is TimedBundle => f.initMs !== undefined;

export interface BundlesResult {
  helloWorld: { bytes: number; initMs: number };
  /** A hello world that loads the DynamoDB document client (which every function does). */
  sdkHelloWorld: { bytes: number; initMs: number };
  functions: BundleResult[];
  /** Each lazy package's file, as the layer holds it, bytes. */
  lazyPackages: Record<string, number>;
  largest: BundleResult;
  /** The slowest of the bundles timed. */
  slowest: TimedBundle;
}

async function bundle(entry: string, outfile: string): Promise<{ bytes: number; inputs: Inputs }> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    ...esbuildOptions(),
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { bytes: output.bytes, inputs: output.inputs };
}

/**
 * Every entry in one esbuild call (each module parsed once for all of them, on every core): without
 * code splitting each entry's output is what a build of its own writes. By output name.
 */
async function bundleAll(entries: readonly { name: string; entry: string }[]): Promise<Map<string, { bytes: number; inputs: Inputs }>> {
  const result = await build({
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, join(ROOT, e.entry)])),
    outdir: OUT_DIR,
    outExtension: { '.js': '.cjs' },
    ...esbuildOptions(),
    metafile: true,
    logLevel: 'error',
  });
  const byFile = new Map<string, { bytes: number; inputs: Inputs }>();
  for (const [file, output] of Object.entries(result.metafile.outputs))
    byFile.set(resolve(file), { bytes: output.bytes, inputs: output.inputs });
  return byFile;
}

function largestPackages(inputs: Inputs, top = 6): Record<string, number> {
  const byPackage: Record<string, number> = {};
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
    byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
  }
  return Object.fromEntries(
    Object.entries(byPackage)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([pkg, bytes]) => [pkg, Math.round(bytes / 1024)]),
  );
}

/** The time from a fresh process's start until `file` is loaded (measured inside that process). */
async function initMs(file: string): Promise<number> {
  const script = `require(${JSON.stringify(file)}); process.stdout.write(String(performance.now()));`;
  const env = {
    ...process.env,
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    NODE_OPTIONS: '',
  };
  return Number((await run(process.execPath, ['-e', script], { env, cwd: OUT_DIR, encoding: 'utf8' })).stdout);
}

export interface BundlesOptions {
  /** Rounds of init timing over every bundle (each keeps its least). */
  runs: number;
  /** The baselines are timed before every this many bundles (default 5; the smoke run: once a round). */
  baselineEvery?: number;
  /** Fresh processes timed at once (default 1, one after another; the smoke run: one per core). */
  concurrency?: number;
  /**
   * How many bundles' init is timed, spread evenly over them, the largest always among them
   * (default all). Every bundle is still built and sized. The smoke run times a few: a fresh
   * process per bundle is most of the section's CPU, and the smoke run reports on nothing.
   */
  timed?: number;
}

export async function measureBundles(options: BundlesOptions): Promise<BundlesResult> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  buildLazyPackages(join(OUT_DIR, 'node_modules'));
  const lazyPackages = Object.fromEntries(LAZY_PACKAGES.map((p) => [p, statSync(join(OUT_DIR, 'node_modules', lazyPackageFile(p))).size]));
  const hello = join(OUT_DIR, 'hello-world.ts');
  writeFileSync(hello, "export const handler = async () => ({ statusCode: 200, body: 'hello' });\n");
  const helloOut = join(OUT_DIR, 'hello-world.cjs');
  const helloBuilt = await bundle(hello, helloOut);
  const sdkHello = join(OUT_DIR, 'sdk-hello-world.ts');
  writeFileSync(
    sdkHello,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n" +
      'const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n' +
      'export const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });\n',
  );
  const sdkHelloOut = join(OUT_DIR, 'sdk-hello-world.cjs');
  const sdkHelloBuilt = await bundle(sdkHello, sdkHelloOut);

  const entries = [
    ...routes.map((r) => ({ name: r.operationId, entry: r.handler })),
    { name: fallbackRoute.operationId, entry: fallbackRoute.handler },
    { name: consoleRoute.operationId, entry: consoleRoute.handler },
    ...queues.filter((q) => q.consumer).map((q) => ({ name: `${q.name}Consumer`, entry: q.consumer! })),
    ...[socketAuthorizer, ...socketRoutes].map((r) => ({ name: r.operationId, entry: r.handler })),
  ];
  const built = await bundleAll(entries);
  const outputs = entries.map(({ name, entry }) => {
    const outfile = join(OUT_DIR, `${name}.cjs`);
    return { name, entry, outfile, ...built.get(outfile)! };
  });
  // Round after round over every bundle, so a burst of load on the machine hits one run of many
  // bundles rather than every run of one; each keeps its least. The baselines run between every
  // few bundles: they divide every ratio, and a baseline slowed by noise would flatter them all.
  const least = new Map<string, number>();
  const baselineEvery = options.baselineEvery ?? BASELINE_EVERY;
  const largestOut = outputs.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const every = Math.max(1, Math.floor(outputs.length / (options.timed ?? outputs.length)));
  const toTime = outputs.filter((o, i) => i % every === 0 || o === largestOut);
  const round = toTime.flatMap((o, i) => (i % baselineEvery === 0 ? [helloOut, sdkHelloOut, o.outfile] : [o.outfile]));
  for (let r = 0; r < options.runs; r++) {
    await mapConcurrently(round, options.concurrency ?? 1, async (f) => {
      const ms = await initMs(f);
      least.set(f, Math.min(least.get(f) ?? Infinity, ms));
    });
  }
  const functions: BundleResult[] = outputs.map((o) => ({
    name: o.name,
    entry: o.entry,
    bytes: o.bytes,
    ...(least.has(o.outfile) && { initMs: least.get(o.outfile)! }),
    largest: largestPackages(o.inputs),
  }));
  const helloInit = least.get(helloOut)!;
  const sdkHelloInit = least.get(sdkHelloOut)!;
  // The largest output's result (found once, above, to be among those timed).
  const largest = functions[outputs.indexOf(largestOut)]!;
  const slowest = functions.filter(isTimed).reduce((a, b) => (b.initMs > a.initMs ? b : a));
  return {
    helloWorld: { bytes: helloBuilt.bytes, initMs: helloInit },
    sdkHelloWorld: { bytes: sdkHelloBuilt.bytes, initMs: sdkHelloInit },
    functions,
    lazyPackages,
    largest,
    slowest,
  };
}

/**
 * The largest bundle and the slowest init against their targets. Init is held against two
 * baselines: the bare hello world (the first target, which the SDK's own load alone comes near)
 * and the hello world with the DynamoDB document client (issue 35, item 4: what a function adds
 * to the SDK every function needs).
 */
export function bundleChecks(bundles: BundlesResult): Check[] {
  const within = <F extends BundleResult>(list: F[], ok: (f: F) => boolean) => `${list.filter(ok).length} of ${list.length} within`;
  const bundlesWithin = within(bundles.functions, (f) => f.bytes / 1024 <= TARGETS.largestBundleKb);
  const initCheck = (baseline: string, baselineMs: number): Check => {
    const initsWithin = within(bundles.functions.filter(isTimed), (f) => f.initMs / baselineMs <= TARGETS.initRatio);
    return {
      target: `slowest init ÷ ${baseline}: ${bundles.slowest.name}; ${initsWithin}`,
      value: bundles.slowest.initMs / baselineMs,
      limit: `≤ ${TARGETS.initRatio}`,
      ok: bundles.slowest.initMs / baselineMs <= TARGETS.initRatio,
    };
  };
  return [
    {
      target: `largest bundle (KB): ${bundles.largest.name}; ${bundlesWithin}`,
      value: bundles.largest.bytes / 1024,
      limit: `≤ ${TARGETS.largestBundleKb}`,
      ok: bundles.largest.bytes / 1024 <= TARGETS.largestBundleKb,
    },
    initCheck('hello world', bundles.helloWorld.initMs),
    initCheck('the SDK hello world', bundles.sdkHelloWorld.initMs),
  ];
}

export function printBundles(b: BundlesResult): void {
  const functions = [...b.functions].sort((x, y) => y.bytes - x.bytes);
  const hello = b.helloWorld;
  const sdkHello = b.sdkHelloWorld;
  table(
    `6. Bundles (minified; hello world ${n(hello.bytes / 1024)} KB, init ${n(hello.initMs)} ms; ` +
      `hello world + DynamoDB document client ${n(sdkHello.bytes / 1024)} KB, init ${n(sdkHello.initMs)} ms)`,
    ['function', 'KB', 'init ms', '÷ hello', '÷ SDK hello', 'largest parts (KB)'],
    functions.map((f) => [
      f.name,
      f.bytes / 1024,
      ...(f.initMs === undefined ? ['–', '–', '–'] : [f.initMs, f.initMs / hello.initMs, f.initMs / sdkHello.initMs]),
      Object.entries(f.largest)
        .slice(0, 4)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ]),
  );
}
