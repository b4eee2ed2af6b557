import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { App } from 'aws-cdk-lib';

// A CDK app for a test to synthesize, writing into a folder that goes when the file's tests end:
// an app given no outdir writes a cdk.out of its own into the system's temporary folder and leaves
// it there (several megabytes for each synth of the whole stage). Unless the test asks for a
// bundling app, the empty bundling-stacks list skips esbuild, so a synth stays fast.
const root = mkdtempSync(join(tmpdir(), 'notify-synth-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

export function synthApp(options: { bundling?: boolean } = {}): App {
  const outdir = mkdtempSync(join(root, 'app-'));
  return new App(options.bundling ? { outdir } : { outdir, context: { 'aws:cdk:bundling-stacks': [] } });
}
