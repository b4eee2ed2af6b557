import { setTimeout as sleep } from 'node:timers/promises';
import { StaleWriteError } from './repository.ts';

// A write that lost a race to another request on the same channel is redone from fresh reads,
// after a short random pause, so requests that collided do not collide again in lockstep.
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
