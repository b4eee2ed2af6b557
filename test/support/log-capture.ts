import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

// A log capture over the whole test run (issue 9, item 5): every process of the suite (the main
// process, where the global setup's consumers run, and each test worker, where the API handlers
// run) appends what it writes to stdout and stderr to its own file in one folder; the global
// teardown then looks through all of it for secrets (log-leaks.ts). The service logs through
// Powertools, which writes one JSON line per entry straight to process.stdout / stderr, so the
// streams are where every log line passes.

export const LOG_CAPTURE_DIR_ENV = 'LOG_CAPTURE_DIR';

const INSTALLED = Symbol.for('notify.logCapture');

/**
 * Whether a chunk is a line of the service's JSON log (Powertools writes each as one chunk): its
 * log entries, and its metrics (EMF lines, lib/observability/metrics.ts).
 */
export const isServiceLogLine = (chunk: string): boolean => chunk.startsWith('{"level":') || chunk.startsWith('{"_aws":');

/**
 * From now on, what this process writes to stdout/stderr (all of it, or what `keep` picks) is
 * also appended to `file`; `print` decides what still reaches the terminal. Once per process.
 */
export function captureOutput(file: string, print: (chunk: string) => boolean, keep: (chunk: string) => boolean = () => true): void {
  const global = globalThis as { [INSTALLED]?: boolean };
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  const fd = openSync(file, 'a');
  process.once('exit', () => closeSync(fd));
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (keep(text)) writeSync(fd, text);
      if (print(text)) return write(chunk, ...rest);
      // Not printed: still honour a write callback.
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof stream.write;
  }
}

/** Everything captured in `dir`, by file. */
export function readCapture(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).sort()) files.set(name, readFileSync(join(dir, name), 'utf8'));
  return files;
}
