import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/emulators.ts';

// `npm start` as a user runs it: it starts its own emulators, prints a working curl, writes
// demo.json, and stops cleanly on Ctrl-C.

const stateDir = mkdtempSync(join(tmpdir(), 'notify-start-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe('npm start', () => {
  it('serves the demo organization and stops on SIGINT', async () => {
    const port = await freePort();
    // Without the workers' endpoint settings, so it starts its own emulators as `npm start` does.
    const { AWS_ENDPOINT_URL_DYNAMODB: _d, AWS_ENDPOINT_URL_SQS: _s, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
      env: { ...env, PORT: String(port), LOCAL_STATE_DIR: stateDir, TABLE_NAME: 'notify-start-test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    try {
      const deadline = Date.now() + 45_000;
      while (!/curl -s (\S+) -H 'Authorization: ApiKey (\w+)'/.test(output)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not get ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [, url, apiKey] = /curl -s (\S+) -H 'Authorization: ApiKey (\w+)'/.exec(output)!;
      expect(url).toBe(`http://127.0.0.1:${port}/v1/integrations`);

      const res = await fetch(url!, { headers: { authorization: `ApiKey ${apiKey}` } });
      expect(res.status).toBe(200);
      const integrations = (await res.json()) as { providerId: string }[];
      expect(integrations.map((i) => i.providerId).sort()).toEqual(['svc', 'svc', 'svc-email', 'svc-email', 'svc-sms', 'svc-sms']);

      const demoFile = join(stateDir, 'demo.json');
      expect(existsSync(demoFile)).toBe(true);
      const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
      expect(demo.organizationId).toMatch(/^[0-9a-f]{24}$/);
      expect(demo.environments.map((e: { name: string }) => e.name)).toEqual(['Development', 'Production']);
      expect(demo.environments[0].apiKey).toBe(apiKey);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
