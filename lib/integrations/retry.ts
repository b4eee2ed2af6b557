import { StaleWriteError } from './repository.ts';

// A write that lost a race to another request on the same channel is redone from fresh reads.
const ATTEMPTS = 5;

export async function retryOnStaleWrite<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StaleWriteError) || attempt >= ATTEMPTS) throw error;
    }
  }
}
