import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import config, { BESIDE_LOAD_PROJECTS } from '../vitest.config.ts';
import { LOAD_PROJECT } from './support/load-sequencer.ts';

// `npm test`: the whole suite in two phases, on the two cores it is timed on.
//
// First every file that runs against the run's stack or a browser (bound by CPU: about 1.8 cores
// busy). Then the load files (faults, the large audience, the bench's smoke run), which wait out
// visibility timeouts by design and leave about a quarter of the two cores idle, with the unit
// files and the two route walks beside them at a lower priority: those take what the load files
// leave, and the load files, whose fault cases run on consumer budgets of a second or less, keep
// the CPU they ask for. Only files that bound no latency go there (the unit files; the walks,
// which check answers and wait for nothing): integration files that do (a read must wake a delay
// within 20 s) failed at that priority (docs/performance.md, "One read of the stream").
//
// Each phase stops the run when it fails, as `a && b` would. The two runs of the second phase print
// whole lines in turn (each names its project), uncoloured unless this terminal takes colours.

const VITEST = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
/** The nice value of the files beside the load files: a tenth of the CPU when both want all of it. */
const BESIDE_LOAD_NICENESS = 10;

// The first phase is every other project of the config, so a project added there runs here too.
const configured = (config.test?.projects ?? []).map((project) => (project as { test: { name: string } }).test.name);
const PHASES: readonly (readonly { projects: readonly string[]; niceness?: number }[])[] = [
  [{ projects: configured.filter((name) => name !== LOAD_PROJECT && !BESIDE_LOAD_PROJECTS.includes(name)) }],
  [{ projects: [LOAD_PROJECT] }, { projects: BESIDE_LOAD_PROJECTS, niceness: BESIDE_LOAD_NICENESS }],
];

function run(projects: readonly string[], niceness = 0): Promise<number> {
  const env = { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR && { FORCE_COLOR: '1' }) };
  // Arguments of `npm test -- …` (a file, a name filter) go to every run; a run they leave without files passes.
  const extra = process.argv.slice(2);
  const args = [
    VITEST,
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    ...(extra.length > 0 ? ['--passWithNoTests', ...extra] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  // Before the run starts its workers and emulators, which inherit it.
  if (niceness !== 0 && child.pid !== undefined) setPriority(child.pid, niceness);
  createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

for (const phase of PHASES) {
  const codes = await Promise.all(phase.map(({ projects, niceness }) => run(projects, niceness)));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}
