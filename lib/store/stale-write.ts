import { setTimeout as sleep } from 'node:timers/promises';

// Optimistic concurrency, one mechanism for every aggregate: a repository throws StaleWriteError
// when a conditional write finds the item changed since it was read, and the use case redoes the
// whole read-decide-write with retryOnStaleWrite, after a short random pause so requests that
// collided do not collide again in lockstep.

export class StaleWriteError extends Error {}

const ATTEMPTS = 5;
const BASE_DELAY_MS = 20;

export async function retryOnStaleWrite<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StaleWriteError) || attempt >= ATTEMPTS) throw error;
      await sleep(Math.random() * BASE_DELAY_MS * 2 ** attempt);
    }
  }
}
