import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoDbLocal, startSqsEmulator } from '#infra/local/emulators.ts';
import { mapConcurrently } from '#lib/concurrency.ts';
import type { Group, VariantResult } from './added-costs-variant.ts';
import { addedCostChecks, printAddedCosts } from './added-costs-report.ts';
import { loadNow, machineOf, SMOKE, writeResults, type Machine } from './results-path.ts';
import { CONSUMER_CONCURRENCY, log, SIZES } from './settings.ts';
import { BULK_EVENTS } from './scenarios.ts';
import { round } from './stats.ts';
import type { Check } from './table.ts';

// Where the time of a one-recipient in-app delivery goes (issue 35, item 2): the same many
// one-recipient triggers (bulk requests of 100) with everything on, and with each thing added
// since 2026-11-24 switched off in turn, and with all of them off; each variant in a process of
// its own (bench/added-costs-variant.ts), one after another in the same run, the all-on variant
// again at the end to show the machine's drift. What cannot be switched (TTL attributes, sharded
// keys: they are in the items) is measured by replaying a delivery's items (bench/write-variants.ts);
// the API rate-limit check is one conditional UpdateItem per API request, timed alone.

export interface AddedCostsResult {
  events: number;
  eventsPerRequest: number;
  variants: VariantResult[];
}

const VARIANT_SCRIPT = fileURLToPath(new URL('added-costs-variant.ts', import.meta.url));

/** Environment of a variant: metrics and traces switched as Lambda and Powertools read them. */
function envOf(metrics: boolean, traces: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, POWERTOOLS_METRICS_DISABLED: metrics ? 'false' : 'true' };
  if (traces) {
    Object.assign(env, {
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x',
      LAMBDA_TASK_ROOT: tmpdir(),
      _X_AMZN_TRACE_ID: 'Root=1-67a0b1c2-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1',
      AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    });
  } else {
    for (const key of ['AWS_EXECUTION_ENV', 'LAMBDA_TASK_ROOT', '_X_AMZN_TRACE_ID']) delete env[key];
  }
  return env;
}

async function runGroup(group: Group, metrics: boolean, traces: boolean): Promise<VariantResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-variant-'));
  const out = join(dir, 'result.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', VARIANT_SCRIPT], {
        env: { ...envOf(metrics, traces), BENCH_VARIANT: JSON.stringify(group), BENCH_VARIANT_OUT: out },
        // Metrics are EMF lines on stdout, as in Lambda: written, not shown.
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`added costs: ${group.variants.map((v) => v.name).join(', ')} exited with ${code}`);
    return JSON.parse(readFileSync(out, 'utf8')) as VariantResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureAddedCosts(options: {
  events: number;
  eventsPerRequest: number;
  subscribers: number;
  consumerConcurrency: number;
  log: (message: string) => void;
}): Promise<AddedCostsResult> {
  const base = {
    events: options.events,
    eventsPerRequest: options.eventsPerRequest,
    subscribers: options.subscribers,
    consumerConcurrency: options.consumerConcurrency,
  };
  const on = { sockets: true, webhook: true, streams: true, detailed: false };
  const off = { sockets: false, webhook: false, streams: false, detailed: false };
  const plan: { group: Group; metrics: boolean; traces: boolean }[] = [
    {
      group: {
        ...base,
        variants: [
          { ...on, detailed: true, name: 'everything on' },
          { ...on, sockets: false, name: 'no open sockets (no live announcement or push)' },
          { ...on, webhook: false, streams: false, name: 'no webhooks (no endpoint, no stream consumer)' },
          { ...on, webhook: false, name: 'stream consumer, endpoint disabled' },
          { ...on, name: 'everything on, again (drift)' },
        ],
      },
      metrics: true,
      traces: true,
    },
    { group: { ...base, variants: [{ ...on, name: 'no metrics' }] }, metrics: false, traces: true },
    { group: { ...base, variants: [{ ...on, name: 'no traces' }] }, metrics: true, traces: false },
    { group: { ...base, variants: [{ ...off, name: 'all of them off (as 2026-11-24)' }] }, metrics: false, traces: false },
  ];
  // The smoke run times nothing it reports on, only that each process completes: its processes
  // run side by side, on one DynamoDB Local and one fauxqs started here, each with a table and
  // queues of its own (148 → 122 → 107 s for the section here). A measured run keeps them one after
  // another, each with the machine and emulators of its own.
  const shared = SMOKE ? await Promise.all([startDynamoDbLocal({ shortLived: true }), startSqsEmulator()]) : undefined;
  try {
    const runPlanned = (planned: (typeof plan)[number]) => {
      const { group, metrics, traces } = planned;
      options.log(`added costs: ${group.variants.map((v) => v.name).join('; ')} (${group.events} one-recipient events each)`);
      if (!shared) return runGroup(group, metrics, traces);
      const [dynamo, sqs] = shared;
      const emulators = {
        dynamoEndpoint: dynamo.endpoint,
        sqsEndpoint: sqs.endpoint,
        tableName: `notify-bench-costs-${plan.indexOf(planned)}`,
      };
      return runGroup({ ...group, emulators }, metrics, traces);
    };
    const groups = await mapConcurrently(plan, shared ? plan.length : 1, runPlanned);
    return { events: options.events, eventsPerRequest: options.eventsPerRequest, variants: groups.flat() };
  } finally {
    await Promise.all((shared ?? []).map((emulator) => emulator.stop()));
  }
}

/** The section at the run's sizes: BENCH_ADDED_COST_EVENTS events per variant, in whole bulk requests. */
export function addedCostsSection(): Promise<AddedCostsResult> {
  const perRequest = SIZES.addedCostRequestEvents ?? BULK_EVENTS;
  return measureAddedCosts({
    events: Math.max(
      perRequest,
      Math.round(Number(process.env.BENCH_ADDED_COST_EVENTS ?? SIZES.addedCostEvents) / perRequest) * perRequest,
    ),
    eventsPerRequest: perRequest,
    // The smoke run: few recipients (a socket each), every one still sent to several times.
    subscribers: SMOKE ? 20 : Math.min(SIZES.subscribers, 200),
    consumerConcurrency: CONSUMER_CONCURRENCY,
    log,
  });
}

/** bench/results-costs.json. */
export interface AddedCostsResults {
  startedAt: string;
  machine: Machine;
  targets: Check[];
  addedCosts: AddedCostsResult;
}

/** BENCH_ONLY=costs: where a one-recipient delivery's time goes, and the targets of issue 35 items 3 and 6. */
export async function addedCostsOnly(): Promise<void> {
  const startedAt = new Date();
  const load = [loadNow()];
  const addedCosts = await addedCostsSection();
  load.push(loadNow());
  const results: AddedCostsResults = {
    startedAt: startedAt.toISOString(),
    machine: machineOf(load),
    targets: addedCostChecks(addedCosts).map((c) => ({ ...c, value: round(c.value) })),
    addedCosts,
  };
  writeResults('results-costs.json', results);
  console.log(`\nAdded costs ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`);
  printAddedCosts(addedCosts);
}
