import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/emulators.ts';
import { findCallerByApiKey } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { TestSocket } from '../support/sockets.ts';

// `npm start` as a user runs it: it prints a working curl, its socket URL and the console's URL
// (which serves the built console), writes demo.json, and stops cleanly on Ctrl-C; pointed at an existing
// DynamoDB and SQS it uses them and reuses its
// demo.

const CURL = /curl -s (\S+) -H 'Authorization: ApiKey (\w+)'/;
const INBOX = /applicationIdentifier: '([\w-]+)', backendUrl: '(\S+)'/;
const stateDirs: string[] = [];
afterAll(() => stateDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function newStateDir() {
  const dir = mkdtempSync(join(tmpdir(), 'notify-start-'));
  stateDirs.push(dir);
  return dir;
}

/** Runs `infra/local/start.ts` (what `npm start` runs) until its curl works, then Ctrl-C. */
async function runStart(env: Record<string, string | undefined>) {
  const port = await freePort();
  const socketPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...env, PORT: String(port), SOCKET_PORT: String(socketPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 45_000;
    while (!CURL.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`start did not get ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [, url, apiKey] = CURL.exec(output)!;
    const res = await fetch(url!, { headers: { authorization: `ApiKey ${apiKey}` } });
    // The printed inbox settings open a subscriber's inbox.
    const [, applicationIdentifier, backendUrl] = INBOX.exec(output) ?? [];
    const session = await fetch(`${backendUrl}/v1/inbox/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationIdentifier, subscriber: 'demo-user' }),
    });
    // The inbox sockets answer as API Gateway would: no session token, no socket.
    const socketUrl = /Inbox sockets: (\S+)/.exec(output)?.[1];
    const refused = await TestSocket.open(socketUrl ?? 'ws://127.0.0.1:1').then(
      () => 'opened',
      (error: { status?: number }) => error.status,
    );
    // The printed console URL answers the built page, which loads its script from there.
    const consoleUrl = /Console: (\S+)/.exec(output)?.[1];
    const consolePage = await fetch(consoleUrl ?? 'http://127.0.0.1:1/');
    const consoleHtml = await consolePage.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(consoleHtml)?.[1];
    const consoleScript = script ? (await fetch(new URL(script, consoleUrl))).status : undefined;
    return {
      consoleUrl,
      consoleStatus: consolePage.status,
      consoleHtml,
      consoleScript,
      output,
      port,
      socketPort,
      socketUrl,
      refused,
      url: url!,
      apiKey: apiKey!,
      applicationIdentifier,
      sessionStatus: session.status,
      status: res.status,
      integrations: (await res.json()) as { providerId: string }[],
    };
  } finally {
    child.kill('SIGINT');
    const code = await exited;
    expect(code, output).toBe(0);
  }
}

describe('npm start', () => {
  it('starts its own emulators, serves the demo organization and stops on SIGINT', async () => {
    const stateDir = newStateDir();
    // Without the workers' endpoint settings, so it starts its own emulators as `npm start` does.
    const { AWS_ENDPOINT_URL_DYNAMODB: _d, AWS_ENDPOINT_URL_SQS: _s, ...env } = process.env;
    const run = await runStart({ ...env, LOCAL_STATE_DIR: stateDir, TABLE_NAME: 'notify-start-test' });

    expect(run.url).toBe(`http://127.0.0.1:${run.port}/v1/integrations`);
    expect(run.status).toBe(200);
    expect(run.socketUrl).toBe(`ws://127.0.0.1:${run.socketPort}`);
    expect(run.refused).toBe(401);
    expect(run.consoleUrl).toBe(`http://127.0.0.1:${run.port}/`);
    expect(run.consoleStatus).toBe(200);
    expect(run.consoleHtml).toContain('<title>Notify console</title>');
    expect(run.consoleScript).toBe(200);
    // It says which of the printed keys signs in.
    expect(run.output).toMatch(/Console: \S+ .*sign in with the Development API key/);
    expect(run.output).toMatch(/Development +environment \w+ +API key \w+/);
    expect(run.integrations.map((i) => i.providerId).sort()).toEqual(['svc', 'svc', 'svc-email', 'svc-email', 'svc-sms', 'svc-sms']);

    const demoFile = join(stateDir, 'demo.json');
    expect(existsSync(demoFile)).toBe(true);
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    expect(demo.organizationId).toMatch(/^[0-9a-f]{24}$/);
    expect(demo.environments.map((e: { name: string }) => e.name)).toEqual(['Development', 'Production']);
    expect(demo.environments[0].apiKey).toBe(run.apiKey);
    expect(demo.environments[0].applicationIdentifier).toBe(run.applicationIdentifier);
    expect(run.sessionStatus).toBe(201);
    expect(demo.workflow).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), workflowId: 'demo-comments' });
    expect(demo).toMatchObject({ apiUrl: `http://127.0.0.1:${run.port}`, socketUrl: run.socketUrl });
  }, 60_000);

  it('uses the DynamoDB and SQS it is pointed at, and reuses its demo there', async () => {
    const stateDir = newStateDir();
    // A table of its own, and so queues of its own: its consumers must not take the other test
    // files' messages (a live push to the sockets of a socket server that is not theirs would
    // find them gone, and drop their connections).
    const table = `notify-start-${newId().slice(-8)}`;
    const env = {
      ...process.env,
      LOCAL_STATE_DIR: stateDir,
      TABLE_NAME: table,
      DYNAMODB_ENDPOINT: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      SQS_ENDPOINT: process.env.AWS_ENDPOINT_URL_SQS,
    };
    const first = await runStart(env);
    // The demo was written to the store this test reads too.
    const ownTable = process.env[ENV.tableName];
    process.env[ENV.tableName] = table;
    const caller = await findCallerByApiKey(first.apiKey).finally(() => {
      process.env[ENV.tableName] = ownTable;
    });
    const demo = JSON.parse(readFileSync(join(stateDir, 'demo.json'), 'utf8'));
    expect(caller?.organizationId).toBe(demo.organizationId);

    const second = await runStart(env);
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.integrations).toHaveLength(6);
  }, 60_000);
});
