import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';

/**
 * Packages a function loads when a job or request first needs one, not at its start (lib/lazy.ts,
 * docs/performance.md "Small functions"): each is imported only by `import()`, left out of every
 * bundle, and built on its own, minified like a bundle, into the lazy-packages layer, where Lambda's
 * Node finds it (NODE_PATH holds /opt/nodejs/node_modules). Each is one import path whose file
 * holds all it needs, so no two files share a copy of anything.
 */
export const LAZY_PACKAGES = [
  'nodemailer',
  'sanitize-html',
  'cheerio/slim',
  'juice/lib/inline.js',
  'ajv',
  'ajv-formats/dist/formats.js',
  '@aws-lambda-powertools/tracer',
  'liquidjs',
  'pluralize',
] as const;
/** The packages themselves (an import path's first segment or two), left out of the bundles. */
export const LAZY_EXTERNAL = [
  ...new Set(
    LAZY_PACKAGES.map((p) =>
      p
        .split('/')
        .slice(0, p.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  ),
];

// How every Lambda is bundled (esbuild). The CDK stack passes these options to NodejsFunction;
// the benchmark and the bundle tests build with them directly, so what they measure is what ships.
export const BUNDLING = {
  // CommonJS: the runtime require()s the handler and the AWS SDK it ships. An ES module handler
  // imports the SDK's CommonJS files through Node's ESM loader, which lexes each one for its
  // exports: a cold start 25-40 % slower (docs/performance.md, "Init").
  format: 'cjs',
  // The runtime's Node (infra/stack.ts: nodejs24.x, the newest Node LTS Lambda offers).
  target: 'node24',
  // ES module sources of dependencies where they have them: esbuild tree-shakes those.
  mainFields: ['module', 'main'],
  minify: true,
  // The nodejs24.x runtime ships SDK v3; the lazy packages are in their layer.
  external: ['@aws-sdk/*', ...LAZY_EXTERNAL],
  // import() of a package left out becomes require(), which reads NODE_PATH (the layer) as
  // import() does not; and a CommonJS bundle loads it as the runtime's SDK clients load.
  supported: { 'dynamic-import': false },
  // Modules replaced in every bundle: postcss, which sanitize-html loads and we never call
  // (bundling/postcss-stub.cjs says why).
  alias: { postcss: fileURLToPath(new URL('./bundling/postcss-stub.cjs', import.meta.url)) },
} as const;

/** The same, as esbuild's own options: for building a function outside the stack. */
export const esbuildOptions = (): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: BUNDLING.format,
  target: BUNDLING.target,
  mainFields: [...BUNDLING.mainFields],
  minify: BUNDLING.minify,
  external: [...BUNDLING.external],
  supported: { ...BUNDLING.supported },
  alias: { ...BUNDLING.alias },
});

/** Where `require(path)` finds a lazy package's file in a node_modules folder (no package.json there). */
export const lazyPackageFile = (path: string): string => (path.endsWith('.js') ? path : `${path}.js`);

/**
 * Builds each lazy package into `<dir>/<path>.js` (or `<path>` itself when it names a .js file),
 * where `require('<path>')` finds it from a bundle whose node_modules (or NODE_PATH) is `dir`.
 * The stack builds the layer with it (`dir` = nodejs/node_modules), the bench and bundle test
 * beside the bundles they build.
 */
export function buildLazyPackages(dir: string): void {
  for (const path of LAZY_PACKAGES) {
    buildSync({
      ...esbuildOptions(),
      stdin: { contents: `module.exports = require(${JSON.stringify(path)});`, resolveDir: fileURLToPath(new URL('..', import.meta.url)) },
      // The package itself is what this file holds.
      external: ['@aws-sdk/*'],
      outfile: join(dir, lazyPackageFile(path)),
      logLevel: 'warning',
    });
  }
}
