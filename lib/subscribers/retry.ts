import { setTimeout as sleep } from 'node:timers/promises';
import { StaleSubscriberError } from './repository.ts';

// A read-modify-write that lost a race to another request on the same subscriber is redone from
// a fresh read, after a short random pause so the two do not collide again in lockstep.
const ATTEMPTS = 5;
const BASE_DELAY_MS = 20;

export async function retryOnStaleSubscriber<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StaleSubscriberError) || attempt >= ATTEMPTS) throw error;
      await sleep(Math.random() * BASE_DELAY_MS * 2 ** attempt);
    }
  }
}
