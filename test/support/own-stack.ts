import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '#infra/local/stack.ts';
import { newId } from '#lib/ids.ts';

// A local stack of a test file's own, for settings the consumers must run with (the fault layer,
// a short long-wait threshold): the emulators are the global setup's; the table, queues, pollers
// and API (any free port) are the file's. Starting it points this worker at its table and queues.
// `ownEmulators`: a DynamoDB Local and an SQS emulator of the file's own too, stopped with it. The
// load files write hundreds of thousands of items and stream records, which a shared DynamoDB
// Local keeps after the file ends: its next stream reads then held a core for minutes, starving
// the file that ran after.

export interface OwnStack {
  stack: LocalStack;
  stop(): Promise<void>;
}

export async function startOwnStack(
  name: string,
  { ownEmulators = false, ...options }: Omit<LocalStackOptions, 'stateDir'> & { ownEmulators?: boolean } = {},
): Promise<OwnStack> {
  const stateDir = mkdtempSync(join(tmpdir(), `notify-${name}-`));
  const stack = await startLocalStack({
    stateDir,
    tableName: `notify-${name}-${newId().slice(-8)}`,
    ...(ownEmulators
      ? { shortLivedEmulator: true }
      : { dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!, sqsEndpoint: process.env.AWS_ENDPOINT_URL_SQS! }),
    port: 0,
    onConsumerError: () => undefined,
    ...options,
  });
  return {
    stack,
    async stop() {
      await stack.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
