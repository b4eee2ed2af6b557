import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from './stats.ts';

/** Where results are written: bench/ unless BENCH_RESULTS_DIR says (the smoke test's temporary folder). */
export const resultsPath = (name: string): string =>
  join(process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('.', import.meta.url)), name);

/** BENCH_SMOKE=1: every section at its smallest (test/load/bench.test.ts). */
export const SMOKE = process.env.BENCH_SMOKE === '1';

export interface Machine {
  cpus: number;
  node: string;
  /** The 1-minute load average at the start of the run and at its end. */
  loadAverage1m: number[];
}

/** The machine's 1-minute load average now (a run records it at its start and its end). */
export const loadNow = (): number => loadavg()[0]!;

export const machineOf = (load: readonly number[]): Machine => ({
  cpus: cpus().length,
  node: process.version,
  loadAverage1m: load.map((l) => round(l)),
});

/** JSON.stringify's replacer for results: fractions to 3 decimals. */
export function roundNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? round(value, 3) : value;
}

/** Writes `results` to `name` (resultsPath), fractions rounded unless `exact`. */
export function writeResults(name: string, results: unknown, exact = false): void {
  const text = exact ? JSON.stringify(results, null, 2) : JSON.stringify(results, roundNumbers, 2);
  // BENCH_RESULTS_DIR may name a folder not made yet (a run kept out of the tree).
  mkdirSync(dirname(resultsPath(name)), { recursive: true });
  writeFileSync(resultsPath(name), `${text}\n`);
}
