import { describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '#infra/local/emulators.ts';

// Two stacks that draw the same port at once: the second's JVM fails to bind, and the emulator
// answering there is the first's. The second must not take it as its own (it would share the
// first's tables); asked for a port that another DynamoDB Local serves, it says so.

describe.runIf(process.platform === 'linux')('DynamoDB Local on a port another one serves', () => {
  it('is refused, not taken as the emulator this stack started', async () => {
    const taken = Number(new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port);
    await expect(startDynamoDbLocal({ port: taken, shortLived: true })).rejects.toThrow(
      `Port ${taken} is served by another process, not by the DynamoDB Local started for it`,
    );
    // The emulator that serves it is untouched.
    const answer = await fetch(process.env.AWS_ENDPOINT_URL_DYNAMODB!, { method: 'POST' }).catch(() => undefined);
    expect(answer?.status).toBeDefined();
  });
});
