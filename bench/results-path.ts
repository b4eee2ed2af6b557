import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where results are written: bench/ unless BENCH_RESULTS_DIR says (the smoke test's temporary folder). */
export const resultsPath = (name: string): string =>
  join(process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('.', import.meta.url)), name);

/** BENCH_SMOKE=1: every section at its smallest (test/load/bench.test.ts). */
export const SMOKE = process.env.BENCH_SMOKE === '1';
