import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run bench` at its smallest sizes (BENCH_SMOKE=1), every section: each mode runs to its end
// and writes its results. Nothing about speed is asserted, only that each section completes (a
// section that cannot settle fails with the queue and what is stuck in it). The bench starts its
// own stack (DynamoDB Local, fauxqs) in a process of its own; results go to a temporary folder,
// so the run changes no tracked file.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const results = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

function bench(only: string | undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SMOKE: '1', BENCH_RESULTS_DIR: results };
    delete env.BENCH_ONLY;
    if (only) env.BENCH_ONLY = only;
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

// Minutes each on two shared cores: the whole run builds every function's bundle and starts
// the added-costs section's eight stacks.
const MINUTES = 60_000;

describe('npm run bench, smoke sizes', () => {
  // The sections only a mode of their own runs; the whole run below holds every other one (the
  // endpoints, floor, many triggers, live, audiences, rate limit, waits and added costs), so
  // their modes are not run again here.
  it.each([
    ['auth', 'results-auth.json'],
    ['flood', 'results-flood.json'],
  ])(
    'BENCH_ONLY=%s completes and writes %s',
    async (only, file) => {
      const run = await bench(only);
      expect(run.code, run.output.slice(-4_000)).toBe(0);
      expect(existsSync(join(results, file))).toBe(true);
    },
    20 * MINUTES,
  );

  it(
    'the whole run completes, every section, and writes results.json',
    async () => {
      const run = await bench(undefined);
      expect(run.code, run.output.slice(-4_000)).toBe(0);
      expect(existsSync(join(results, 'results.json'))).toBe(true);
    },
    40 * MINUTES,
  );
});
