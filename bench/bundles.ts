import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { buildLazyPackages, esbuildOptions, LAZY_PACKAGES, lazyPackageFile } from '#infra/bundling.ts';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { consoleRoute } from '#infra/routes/console.ts';
import { fallbackRoute } from '#infra/routes/fallback.ts';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';

// Every Lambda's bundle as the CDK stack builds it (infra/bundling.ts: esbuild, CommonJS, minified,
// node24, the AWS SDK external because the runtime ships it), its size, and its module-init time:
// a fresh Node process requiring it, as the runtime does, from process start to the handler
// module loaded (what Lambda reports as Init Duration, less its own runtime start), against a
// hello-world bundle built the same way. The lazy packages (infra/bundling.ts) are built beside
// the bundles, as in their layer: no bundle loads one at init, and each one's size is reported.

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Inside the repository, so the external @aws-sdk/* packages resolve from node_modules. */
const OUT_DIR = join(ROOT, 'bench', '.bundles');
/** The baselines run once every this many bundles. */
const BASELINE_EVERY = 5;

export interface BundleResult {
  name: string;
  entry: string;
  bytes: number;
  initMs: number;
  /** The largest packages in the bundle, KB. */
  largest: Record<string, number>;
}

export interface BundlesResult {
  helloWorld: { bytes: number; initMs: number };
  /** A hello world that loads the DynamoDB document client (which every function does). */
  sdkHelloWorld: { bytes: number; initMs: number };
  functions: BundleResult[];
  /** Each lazy package's file, as the layer holds it, bytes. */
  lazyPackages: Record<string, number>;
  largest: BundleResult;
  slowest: BundleResult;
}

async function bundle(entry: string, outfile: string): Promise<{ bytes: number; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    ...esbuildOptions(),
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { bytes: output.bytes, metafile: result.metafile };
}

function largestPackages(metafile: Metafile, top = 6): Record<string, number> {
  const byPackage: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
      byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
    }
  }
  return Object.fromEntries(
    Object.entries(byPackage)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([pkg, bytes]) => [pkg, Math.round(bytes / 1024)]),
  );
}

/** The time from a fresh process's start until `file` is loaded. */
function initMs(file: string): number {
  const script = `require(${JSON.stringify(file)}); process.stdout.write(String(performance.now()));`;
  const env = {
    ...process.env,
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    NODE_OPTIONS: '',
  };
  return Number(execFileSync(process.execPath, ['-e', script], { env, cwd: OUT_DIR, encoding: 'utf8' }));
}

export async function measureBundles(options: { runs: number }): Promise<BundlesResult> {
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
  const outputs: { name: string; entry: string; outfile: string; bytes: number; metafile: Metafile }[] = [];
  for (const { name, entry } of entries) {
    const outfile = join(OUT_DIR, `${name}.cjs`);
    outputs.push({ name, entry, outfile, ...(await bundle(join(ROOT, entry), outfile)) });
  }
  // Round after round over every bundle, so a burst of load on the machine hits one run of many
  // bundles rather than every run of one; each keeps its least. The baselines run between every
  // few bundles: they divide every ratio, and a baseline slowed by noise would flatter them all.
  const least = new Map<string, number>();
  const sample = (f: string) => least.set(f, Math.min(least.get(f) ?? Infinity, initMs(f)));
  for (let round = 0; round < options.runs; round++) {
    outputs.forEach((o, i) => {
      if (i % BASELINE_EVERY === 0) [helloOut, sdkHelloOut].forEach(sample);
      sample(o.outfile);
    });
  }
  const functions: BundleResult[] = outputs.map((o) => ({
    name: o.name,
    entry: o.entry,
    bytes: o.bytes,
    initMs: least.get(o.outfile)!,
    largest: largestPackages(o.metafile),
  }));
  const helloInit = least.get(helloOut)!;
  const sdkHelloInit = least.get(sdkHelloOut)!;
  const largest = functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const slowest = functions.reduce((a, b) => (b.initMs > a.initMs ? b : a));
  return {
    helloWorld: { bytes: helloBuilt.bytes, initMs: helloInit },
    sdkHelloWorld: { bytes: sdkHelloBuilt.bytes, initMs: sdkHelloInit },
    functions,
    lazyPackages,
    largest,
    slowest,
  };
}
