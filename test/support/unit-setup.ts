import { ensureConsoleBuilt } from '#infra/local/console-build.ts';

// The unit files need no emulators; two of them read the console's built files (the console
// function's bundle and the stack's asset), built here when a source changed since the last build.
export async function setup() {
  await ensureConsoleBuilt();
}
