import type { Subscriber } from '#lib/subscribers/model.ts';
import { coresUsed, cpuMsPerDelivery, cpuNow } from './cpu.ts';
import { putRateNow } from './floor.ts';
import type { Bench } from './harness.ts';
import { SMOKE } from './results-path.ts';
import { endToEnd, type EndToEndResult, type WorkflowRef } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { CONSUMER_CONCURRENCY, log, SIZES } from './settings.ts';
import { n, table } from './table.ts';
import { replayDeliveryWrites, sampleDeliveryWrites } from './write-bound.ts';

// Section 3, end to end: many one-recipient triggers in bulk requests of 100 until every message
// exists, against the floor measured right before and after it, and against the same writes
// replayed with nothing around them (bench/write-bound.ts).

export type EndToEndSection = EndToEndResult & {
  coresUsed: ReturnType<typeof coresUsed>;
  cpuMsPerDelivery: number | undefined;
  floorPutItemPerSec: { before: number; after: number; mean: number };
  floorDeliveriesPerSec: number;
  floorRatio: number;
  writesAlone: { deliveriesPerSec: number; floorRatio: number; endToEndShare: number };
};

export interface EndToEndMeasured {
  endToEnd: EndToEndSection;
  /** Writes per delivery, exact in the timed run too. */
  writesPerDelivery: number;
}

export async function endToEndSection(
  bench: Bench,
  dev: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
): Promise<EndToEndMeasured> {
  log(`end to end: ${SIZES.e2eRequests * 100} events, ${CONSUMER_CONCURRENCY} batches per consumer at once`);
  // What a delivery costs, counted on a run of its own (capacity asked for); then the timed run.
  const counted = await endToEnd(bench, dev, workflow, subscribers, {
    requests: SMOKE ? 1 : 5,
    parallel: 2,
    consumerConcurrency: CONSUMER_CONCURRENCY,
  });
  const putsBefore = await putRateNow({ itemBytes: 700, puts: SMOKE ? 200 : 2_000 });
  const cpuBefore = cpuNow();
  const timedE2e = await bench.timed(() =>
    endToEnd(bench, dev, workflow, subscribers, { requests: SIZES.e2eRequests, parallel: 2, consumerConcurrency: CONSUMER_CONCURRENCY }),
  );
  const e2eCores = coresUsed(cpuBefore, cpuNow(), timedE2e.seconds);
  const e2e = { ...timedE2e, perDelivery: counted.perDelivery };
  const putsAfter = await putRateNow({ itemBytes: 700, puts: SMOKE ? 200 : 2_000 });
  // The floor of this section: PutItem measured right before and right after it (mean).
  const sectionPutsPerSec = (putsBefore + putsAfter) / 2;
  // Request counts are exact in the timed run too.
  const writesPerDelivery = timedE2e.perDelivery.writeRequests;
  const floorDeliveriesPerSec = sectionPutsPerSec / writesPerDelivery;
  // Not a target: the same writes with nothing around them, to split the ratio's shortfall
  // between what the items cost DynamoDB Local and what the pipeline adds.
  const sample = await sampleDeliveryWrites(dev);
  const { perSec: writesAlonePerSec } = await bench.withoutStreamConsumers(() =>
    replayDeliveryWrites(sample, { deliveries: SIZES.replayDeliveries, subscribers: SIZES.subscribers }),
  );
  return {
    writesPerDelivery,
    endToEnd: {
      ...e2e,
      coresUsed: e2eCores,
      cpuMsPerDelivery: cpuMsPerDelivery(e2eCores, e2e.deliveredPerSec),
      floorPutItemPerSec: { before: putsBefore, after: putsAfter, mean: sectionPutsPerSec },
      floorDeliveriesPerSec,
      floorRatio: e2e.deliveredPerSec / floorDeliveriesPerSec,
      writesAlone: {
        deliveriesPerSec: writesAlonePerSec,
        floorRatio: writesAlonePerSec / floorDeliveriesPerSec,
        endToEndShare: e2e.deliveredPerSec / writesAlonePerSec,
      },
    },
  };
}

export function printEndToEnd(e: EndToEndSection): void {
  table(
    '3. End to end (one-step in-app, bulk requests of 100)',
    ['measure', 'value'],
    [
      ['events', e.events],
      ['accepted / s', e.acceptedPerSec],
      ['delivered / s (until every message exists)', e.deliveredPerSec],
      ['floor PutItem / s, 32 at once, right before / after', `${n(e.floorPutItemPerSec.before, 0)} / ${n(e.floorPutItemPerSec.after, 0)}`],
      ['floor deliveries / s (their mean ÷ writes per delivery)', e.floorDeliveriesPerSec],
      ['ratio', e.floorRatio],
      // The bound any pipeline writing these items has, and how much of it this one reaches.
      ['the same writes alone (its real items replayed, 32 at once): deliveries / s', e.writesAlone.deliveriesPerSec],
      ['their ratio to the floor deliveries (the most the items leave)', e.writesAlone.floorRatio],
      ['end to end ÷ the writes alone', e.writesAlone.endToEndShare],
      ['consumer batches at once', e.consumerConcurrency],
      [
        'cores used: this process (handlers, consumers, fauxqs) / DynamoDB Local',
        `${n(e.coresUsed.node, 2)} / ${e.coresUsed.dynamoDbLocal === undefined ? 'n/a' : n(e.coresUsed.dynamoDbLocal, 2)}`,
      ],
      // What a delivery costs the machine whatever its number of writes (the ratio divides by them).
      ['CPU ms per delivery, this process + DynamoDB Local', e.cpuMsPerDelivery === undefined ? 'n/a' : n(e.cpuMsPerDelivery, 1)],
    ],
  );
}
