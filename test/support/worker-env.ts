import { join } from 'node:path';
import { inject } from 'vitest';
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
