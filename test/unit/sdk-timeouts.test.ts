import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createServer } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { ENV } from '#lib/config.ts';
import { SDK_ATTEMPTS } from '#lib/sdk-timeouts.ts';
import { dynamo } from '#lib/store/client.ts';
import { listenOnLoopback } from '../support/fake-server.ts';

// A table endpoint that takes requests and never answers (a half-open connection, a stuck
// emulator): the service's own client gives each attempt its bound, then tries again on another
// connection, and gives up once its attempts are spent, instead of holding the call until the
// function times out.

afterEach(() => vi.unstubAllEnvs());

it('gives up on an attempt that gets no answer, tries again, and fails within its attempts’ bounds', async () => {
  let requests = 0;
  const silent = await listenOnLoopback(
    createServer((socket) => {
      socket.on('data', (chunk) => {
        if (chunk.toString('latin1').startsWith('POST ')) requests++;
      });
    }),
  );
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', silent.url);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv(ENV.sdkAttemptTimeoutMs, '300');
  try {
    const started = Date.now();
    const failure = await dynamo()
      .send(new GetItemCommand({ TableName: 'silent', Key: { pk: { S: 'a' }, sk: { S: 'b' } } }))
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failure?.name).toBe('TimeoutError');
    expect(requests).toBe(SDK_ATTEMPTS);
    // Its attempts of 300 ms each and the retries' backoff: within the second the reserve allows.
    expect(Date.now() - started).toBeLessThan(SDK_ATTEMPTS * 300 + 1_000);
  } finally {
    await silent.close();
  }
}, 30_000);
