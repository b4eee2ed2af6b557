import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';

// Every Lambda's bundle as the CDK stack builds it (infra/stack.ts: esbuild, ESM, minified,
// node22, the AWS SDK external because the runtime ships it), its size, and its module-init time:
// a fresh Node process importing it, from process start to the handler module loaded (what
// Lambda reports as Init Duration, less its own runtime start), against a hello-world bundle.

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Inside the repository, so the external @aws-sdk/* packages resolve from node_modules. */
const OUT_DIR = join(ROOT, 'bench', '.bundles');

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
  largest: BundleResult;
  slowest: BundleResult;
}

async function bundle(entry: string, outfile: string): Promise<{ bytes: number; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    external: ['@aws-sdk/*'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
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

/**
 * The time from process start until `file` is imported, the least of `runs` fresh processes: other
 * work on the machine only ever adds to it.
 */
function initMs(file: string, runs: number): number {
  const script = `await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now()));`;
  const env = {
    ...process.env,
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    NODE_OPTIONS: '',
  };
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    samples.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, cwd: OUT_DIR, encoding: 'utf8' })));
  }
  return Math.min(...samples);
}

export async function measureBundles(options: { runs: number }): Promise<BundlesResult> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const hello = join(OUT_DIR, 'hello-world.ts');
  writeFileSync(hello, "export const handler = async () => ({ statusCode: 200, body: 'hello' });\n");
  const helloOut = join(OUT_DIR, 'hello-world.mjs');
  const helloBuilt = await bundle(hello, helloOut);
  const sdkHello = join(OUT_DIR, 'sdk-hello-world.ts');
  writeFileSync(
    sdkHello,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n" +
      'const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n' +
      "export const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });\n",
  );
  const sdkHelloOut = join(OUT_DIR, 'sdk-hello-world.mjs');
  const sdkHelloBuilt = await bundle(sdkHello, sdkHelloOut);

  const entries = [
    ...routes.map((r) => ({ name: r.operationId, entry: r.handler })),
    ...queues.filter((q) => q.consumer).map((q) => ({ name: `${q.name}Consumer`, entry: q.consumer! })),
  ];
  const functions: BundleResult[] = [];
  const outputs: { name: string; entry: string; outfile: string; bytes: number; metafile: Metafile }[] = [];
  for (const { name, entry } of entries) {
    const outfile = join(OUT_DIR, `${name}.mjs`);
    outputs.push({ name, entry, outfile, ...(await bundle(join(ROOT, entry), outfile)) });
  }
  // Interleaved with the hello world's runs, so machine noise hits both alike.
  const helloSamples: number[] = [];
  const sdkHelloSamples: number[] = [];
  for (const o of outputs) {
    helloSamples.push(initMs(helloOut, 1));
    sdkHelloSamples.push(initMs(sdkHelloOut, 1));
    functions.push({ name: o.name, entry: o.entry, bytes: o.bytes, initMs: initMs(o.outfile, options.runs), largest: largestPackages(o.metafile) });
  }
  const helloInit = Math.min(...helloSamples, initMs(helloOut, options.runs));
  const largest = functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const slowest = functions.reduce((a, b) => (b.initMs > a.initMs ? b : a));
  const sdkHelloInit = Math.min(...sdkHelloSamples);
  return {
    helloWorld: { bytes: helloBuilt.bytes, initMs: helloInit },
    sdkHelloWorld: { bytes: sdkHelloBuilt.bytes, initMs: sdkHelloInit },
    functions,
    largest,
    slowest,
  };
}
