import { setTimeout as sleep } from 'node:timers/promises';
import { StaleWorkflowError } from './repository.ts';

// A write that lost a race with another change of the same workflow is redone from a fresh read.
const ATTEMPTS = 5;
const BASE_DELAY_MS = 20;

export async function retryOnStaleWorkflow<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StaleWorkflowError) || attempt >= ATTEMPTS) throw error;
      await sleep(Math.random() * BASE_DELAY_MS * 2 ** attempt);
    }
  }
}
