import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What some Lambda bundles must leave out (docs/performance.md). Only a use case that reads what
// an author sent parses Liquid (steps keep their template readings, which views, PATCH and sync
// use), and only one that saves a payloadSchema compiles it with ajv.

async function packagesOf(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  });
  const packages = Object.keys(metafile.inputs).map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]);
  return [...new Set(packages.filter((name) => name !== undefined))];
}

const LIQUID = 'liquidjs';
const AJV = ['ajv', 'ajv-formats'];

const LEFT_OUT: [entry: string, packages: string[]][] = [
  ['functions/workflows/get.ts', [LIQUID, ...AJV]],
  ['functions/workflows/list.ts', [LIQUID, ...AJV]],
  ['functions/workflows/delete.ts', [LIQUID, ...AJV]],
  ['functions/workflows/sync.ts', [LIQUID, ...AJV]],
  ['functions/workflows/patch.ts', [LIQUID]],
  ['functions/notifications/get.ts', [LIQUID, ...AJV]],
  ['functions/notifications/list.ts', [LIQUID, ...AJV]],
  ['functions/openapi/get.ts', [LIQUID, ...AJV]],
];

describe('Lambda bundles', () => {
  it.each(LEFT_OUT)('%s leaves out %j', async (entry, leftOut) => {
    const packages = await packagesOf(entry);
    expect(packages.filter((name) => leftOut.includes(name))).toEqual([]);
  });
});
