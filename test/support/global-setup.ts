// First, for its effect: the log level and the capture of this process's output (see the module).
import { logCaptureDir, logLevelChosen } from './log-capture-main.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureConsoleBuilt } from '#infra/local/console-build.ts';
import { startLocalStack, type LocalStack } from '#infra/local/stack.ts';
import { ENV } from '#lib/config.ts';
import { readCapture } from './log-capture.ts';
import { leaksInCapture } from './log-leaks.ts';
import { LOAD_PROJECT } from './load-sequencer.ts';
import { loggedErrors } from './logged-errors.ts';
import { runResource } from './run-resource.ts';

// Starts the emulators, table and queues once per run and hands their settings to the workers.
// The WebSocket API runs here too, next to the live consumer that pushes to its sockets; workers
// find its URL in LIVE_SOCKET_URL (startTestApi's `socketUrl`).
// At the end, before the table goes, the whole run's log capture is searched for secrets.
//
// Several projects (integration, browser, ...) name this setup: the first starts the stack, the
// others use it, and the last to finish stops it (./run-resource.ts). The `load` project's files
// start stacks of their own, on emulators of their own (fault-stack.ts, the bench's process), so
// it gets the log capture but not the run's stack: an idle stack there cost a JVM's start and its
// pollers' CPU beside files that are short of it.

interface RunStack {
  started: Promise<LocalStack>;
  stateDir: string;
}

const runStack = runResource('testStack', (): RunStack => {
  const stateDir = mkdtempSync(join(tmpdir(), 'notify-test-'));
  // The webhook sender runs here: retries a second apart (not hours) and POSTs that give up after
  // 2 s, so the tests see a fifth attempt and a dead letter in seconds.
  process.env[ENV.webhookRetryScheduleSeconds] ??= '0,1,1,1,1,1,1,1';
  process.env[ENV.webhookTimeoutMs] ??= '2000';
  // The console is served from its built files (console/dist): built here once, before any
  // browser test opens it, when a source changed since the last build.
  const started = Promise.all([startLocalStack({ stateDir, tableName: 'notify-test', socketPort: 0, port: 0 }), ensureConsoleBuilt()]).then(
    ([stack]) => stack,
  );
  return { started, stateDir };
});

/**
 * The log capture, summed up and removed by its last user: after the run's stack (and its check
 * for secrets) is gone, as each project that holds the stack releases it first. Kept to read when
 * a leak was found.
 */
interface CaptureState {
  keep: boolean;
  /** What the stack's check compared the capture with, once it ran. */
  checked?: { secrets: number; apiKeyTokens: number };
}
const runCapture = runResource('testLogCapture', (): CaptureState => ({ keep: false }));

export async function setup(project: TestProject) {
  const capture = runCapture.acquire();
  project.provide('logCapture', { dir: logCaptureDir, levelChosen: logLevelChosen });
  if (project.name === LOAD_PROJECT) {
    project.provide('stackEnv', {});
    return () => releaseCapture();
  }
  const stack = await runStack.acquire().started;
  // The stack's own gateway (port 0) is where the consumers' tracked links and open pixels lead
  // (lib/tracking); each worker serves the API on a gateway of its own, so its URL stays theirs.
  const { [ENV.publicUrl]: _stackUrl, ...workerEnv } = stack.env;
  project.provide('stackEnv', workerEnv);
  return async () => {
    try {
      await releaseStack(capture);
    } finally {
      releaseCapture();
    }
  };
}

/** The last user of the stack searches the capture for the secrets its tables hold, then stops it. */
async function releaseStack(capture: CaptureState) {
  const run = runStack.release();
  if (!run) return;
  const stack = await run.started.catch(() => undefined);
  try {
    if (stack) {
      const { leaks, secrets, apiKeyTokens } = await leaksInCapture(readCapture(logCaptureDir));
      capture.checked = { secrets, apiKeyTokens };
      if (leaks.length > 0) {
        capture.keep = true;
        // An error in the teardown is reported, but does not fail the run by itself.
        process.exitCode = 1;
        const list = leaks.map((l) => `  ${l.file}: ${l.what} ${l.sample}`).join('\n');
        throw new Error(`The log capture of this run holds secrets (kept in ${logCaptureDir}):\n${list}`);
      }
    }
  } finally {
    await stack?.stop();
    rmSync(run.stateDir, { recursive: true, force: true });
  }
}

function releaseCapture() {
  const capture = runCapture.release();
  if (!capture) return;
  const files = readCapture(logCaptureDir);
  const lines = [...files.values()].reduce((n, text) => n + text.split('\n').length - 1, 0);
  const checked = capture.checked
    ? `checked against ${capture.checked.secrets} stored secrets and ${capture.checked.apiKeyTokens} key-shaped tokens: no secret logged`
    : // The load files' tables were in emulators of their own, gone with them.
      'not searched for secrets (no table of the run to read them from)';
  if (!capture.keep) process.stdout.write(`Log capture: ${lines} lines from ${files.size} processes, ${checked}.\n`);
  const errors = loggedErrors(files);
  if (errors.length > 0) process.stdout.write(`Logged at ERROR (by count; many are provoked on purpose):\n${errors.join('\n')}\n`);
  if (!capture.keep) rmSync(logCaptureDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    logCapture: { dir: string; levelChosen: boolean };
  }
}
