import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack } from '#infra/local/stack.ts';

// Starts the emulators, table and queues once per run and hands their settings to the workers.
let stack: LocalStack | undefined;
let stateDir: string | undefined;

export async function setup(project: TestProject) {
  stateDir = mkdtempSync(join(tmpdir(), 'notify-test-'));
  stack = await startLocalStack({ stateDir, tableName: 'notify-test' });
  project.provide('stackEnv', stack.env);
}

export async function teardown() {
  await stack?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}
