import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run bench` at its smallest sizes (BENCH_SMOKE=1), every section: the whole run goes to its
// end and writes its results (and, at these sizes, those of the authentication and flood modes).
// Nothing about speed is asserted, only that each section completes (a section that cannot settle
// fails with the queue and what is stuck in it). The bench starts its own stack (DynamoDB Local,
// fauxqs) in a process of its own; results go to a temporary folder, so the run changes no tracked file.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const results = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

function bench(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SMOKE: '1', BENCH_RESULTS_DIR: results };
    delete env.BENCH_ONLY;
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

// Minutes on two shared cores: the run builds every function's bundle, and the added-costs
// section starts a stack per process of its variants.
const MINUTES = 60_000;

describe('npm run bench, smoke sizes', () => {
  // The whole run holds every section: the endpoints, floor, many triggers, live, audiences, rate
  // limit, waits and added costs, and at smoke sizes also the authentication and flood sections
  // (BENCH_ONLY=auth and flood otherwise), written to their modes' files. So one process and one
  // stack exercise them all; the other modes only run a section of it on a stack of their own.
  it(
    'the whole run completes, every section, and writes results.json, results-auth.json and results-flood.json',
    async () => {
      const run = await bench();
      expect(run.code, run.output.slice(-4_000)).toBe(0);
      for (const file of ['results.json', 'results-auth.json', 'results-flood.json'])
        expect(existsSync(join(results, file)), file).toBe(true);
    },
    40 * MINUTES,
  );
});
