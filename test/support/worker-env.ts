import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { captureOutput, isServiceLogLine } from './log-capture.ts';

// Every test worker talks to the emulators the global setup started, and its output joins the
// run's log capture (test/support/log-capture-main.ts): the service logs at the run's level
// (DEBUG unless POWERTOOLS_LOG_LEVEL is set), into the capture only unless the level was chosen.
const { dir, levelChosen } = inject('logCapture');
Object.assign(process.env, inject('stackEnv'));
// The run stack's PUBLIC_URL (its own gateway, where the consumers' tracked links lead) is set in
// the main process, which the workers inherit: a worker's API answers with its own URL instead.
delete process.env.PUBLIC_URL;
process.env.POWERTOOLS_LOG_LEVEL ??= 'DEBUG';
captureOutput(join(dir, `worker-${process.pid}.log`), (chunk) => levelChosen || !isServiceLogLine(chunk));

// Files share a worker's modules (vitest.config.ts: `isolate: false`), and so its process.env: what
// a file sets (a provider timeout, a lease) is undone once it is done, for the next file.
const before = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
});
