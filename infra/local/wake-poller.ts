import { setTimeout as sleep } from 'node:timers/promises';
import { sendMessages } from '#lib/queue/send.ts';
import { dueWakes, removeWake } from '#lib/queue/table-scheduler.ts';

// The local runtime's EventBridge Scheduler: long waits scheduled as items of the table
// (lib/queue/table-scheduler.ts) are looked for every second; each due one is sent to its queue,
// then deleted. A poller that stops between the two sends it again on its next look: a wake that
// fires twice, which the consumers take as any redelivery.

const INTERVAL_MS = 1000;
const PAGE = 25;

export interface WakePoller {
  stop(): Promise<void>;
}

export function startWakePoller(
  options: {
    intervalMs?: number;
    onError?: (error: unknown) => void;
    /** Told of each wake fired (the benchmark counts them). */ onFired?: () => void;
  } = {},
): WakePoller {
  const abort = new AbortController();
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        // A full page means more may be due: look again at once.
        while (running && (await fireDue(options.onFired)) === PAGE);
      } catch (error) {
        if (running) options.onError?.(error);
      }
      await sleep(options.intervalMs ?? INTERVAL_MS, undefined, { signal: abort.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      running = false;
      abort.abort();
      await loop;
    },
  };
}

async function fireDue(onFired?: () => void): Promise<number> {
  const due = await dueWakes(new Date(), PAGE);
  await Promise.all(
    due.map(async (wake) => {
      await sendMessages(wake.queue, [{ body: wake.body }]);
      await removeWake(wake);
      onFired?.();
    }),
  );
  return due.length;
}
