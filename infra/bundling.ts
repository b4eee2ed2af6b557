import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

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
  // The nodejs24.x runtime ships SDK v3.
  external: ['@aws-sdk/*'],
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
  alias: { ...BUNDLING.alias },
});
