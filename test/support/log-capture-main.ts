import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput, isServiceLogLine } from './log-capture.ts';

// Imported first by the global setup, for its effect: before the service's logger is loaded in
// this process (the consumers run here), the log level is set, and the capture of this
// process's output starts. Unless POWERTOOLS_LOG_LEVEL is set, every process of the run logs at
// DEBUG, the service's most verbose level, and its log lines go only to the capture (the
// terminal shows the test report as before); with it set, they are printed as well. This process
// also writes vitest's report, which quotes failing requests (API keys included) to help rerun
// them: only the service's log lines are kept from it.

//
// Each vitest project loads its global setup (and so this module) anew in the same process: the
// first evaluation decides for the whole run, the later ones read what it decided.

const DECIDED = Symbol.for('notify.logCaptureMain');
const run = ((globalThis as { [DECIDED]?: { dir: string; levelChosen: boolean } })[DECIDED] ??= {
  dir: mkdtempSync(join(tmpdir(), 'notify-test-logs-')),
  levelChosen: process.env.POWERTOOLS_LOG_LEVEL !== undefined,
});

export const logCaptureDir = run.dir;
/** Whoever runs the tests chose a level: print the logs too. */
export const logLevelChosen = run.levelChosen;

process.env.POWERTOOLS_LOG_LEVEL ??= 'DEBUG';
captureOutput(join(logCaptureDir, 'main.log'), (chunk) => logLevelChosen || !isServiceLogLine(chunk), isServiceLogLine);
