import { mapConcurrently } from '../concurrency.ts';
import { sendMessages, type OutgoingMessage } from '../queue/send.ts';
import { scopeOfKey } from '../store/keys.ts';
import { applyCounts, type ScopedCount } from './counters.ts';
import type { StoredChange, StreamChange } from '../store/stream-change.ts';
import { countsOf, engagementChanges } from './transitions.ts';
import { wakesFor } from './wake.ts';

// The engagement consumer's work on one batch of the table's stream (messages and triggers reach
// it: infra/streams.ts): the batch's counts stored at once (counters.ts), and delays waiting for
// engagement woken (wake.ts). A batch that fails is handed over again whole; the counters' markers
// make its counts land once, and a repeated wake is harmless.

/** A stream change as the counts and wakes read it: its images and its item's key. */
export type KeyedChange = StoredChange & Pick<StreamChange, 'pk'>;

/** Wakes looked up at once (each reads a cached workflow, rarely a notification). */
const WAKE_CONCURRENCY = 8;

export async function consumeChanges(changes: readonly KeyedChange[]): Promise<void> {
  const counts: ScopedCount[] = [];
  const engaged: NonNullable<ReturnType<typeof engagementChanges>>[] = [];
  for (const change of changes) {
    const scope = scopeOfKey(change.pk);
    if (!scope) continue;
    for (const count of countsOf(change)) counts.push({ ...count, scope });
    const engagement = engagementChanges(change);
    if (engagement) engaged.push(engagement);
  }
  const wakes: OutgoingMessage[] = (await mapConcurrently(engaged, WAKE_CONCURRENCY, (e) => wakesFor(e.message, e.events))).flat();
  await Promise.all([applyCounts(counts), sendMessages('jobs', wakes)]);
}
