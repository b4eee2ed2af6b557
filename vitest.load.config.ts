import { defineConfig } from 'vitest/config';
import { LOAD_TESTS, shared } from './vitest.config.ts';

// The load tests alone, one file at a time (see vitest.config.ts).
export default defineConfig({
  test: { ...shared, include: LOAD_TESTS, fileParallelism: false },
});
